/** base64url without padding, for bytes and UTF-8 text. */
export const bytesToBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
export const base64UrlToBytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64url'));
export const textToBase64Url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
export const base64UrlToText = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');
