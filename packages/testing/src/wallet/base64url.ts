/** base64url without padding, of bytes or of a string's UTF-8. The one copy the tests share. */
export const toBase64Url = (data: Uint8Array | string): string => Buffer.from(data).toString('base64url');
export const base64UrlToBytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64url'));
export const base64UrlToText = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');
