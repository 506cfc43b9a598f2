import { base64UrlToBytes, toBase64Url } from './base64url.js';

/** Flips one bit of a byte string: the result has the right shape but no longer verifies. */
export function flipBit(bytes: Uint8Array, index = 0): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

/** Replaces the signature of a compact JWS with a same-length one that does not verify. */
export function breakJwsSignature(compact: string): string {
  const [header, payload, signature] = compact.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new TypeError('not a compact JWS');
  return `${header}.${payload}.${toBase64Url(flipBit(base64UrlToBytes(signature)))}`;
}
