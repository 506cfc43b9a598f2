import { ECDH } from 'node:crypto';
import type { JWK } from 'jose';
import { base58btcDecode } from './base58btc.js';
import { DidResolutionError } from './did-resolution-error.js';

const b64u = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** An EC point (compressed, or uncompressed 0x04‖x‖y) → JWK; OpenSSL rejects points off the curve. */
export function ecJwk(crv: 'P-256' | 'P-384' | 'secp256k1', curve: string, point: Uint8Array, size: number): JWK {
  if (point.length !== size + 1 && !(point.length === 2 * size + 1 && point[0] === 0x04)) throw new DidResolutionError('did.invalid', `The ${crv} key has the wrong length`);
  let uncompressed: Buffer;
  try {
    // Multikey carries compressed points; JWK needs both coordinates.
    uncompressed = ECDH.convertKey(point, curve, undefined, undefined, 'uncompressed') as Buffer;
  } catch {
    throw new DidResolutionError('did.invalid', `The ${crv} key is not a point on the curve`);
  }
  return { kty: 'EC', crv, x: b64u(uncompressed.subarray(1, 1 + size)), y: b64u(uncompressed.subarray(1 + size)) };
}

/**
 * A multibase (base58btc, `z…`) multicodec public key → JWK. Supported codecs: ed25519-pub
 * (0xed), secp256k1-pub (0xe7), p256-pub (0x1200), p384-pub (0x1201), jwk_jcs-pub (0xeb51).
 */
export function multikeyToJwk(multibase: string): JWK {
  if (!multibase.startsWith('z')) throw new DidResolutionError('did.invalid', 'Only base58btc (z) multibase keys are supported');
  let bytes: Uint8Array;
  try {
    bytes = base58btcDecode(multibase.slice(1));
  } catch {
    throw new DidResolutionError('did.invalid', 'The multibase key is not valid base58btc');
  }
  const [a, b, c] = bytes;
  if (a === 0xed && b === 0x01) {
    const x = bytes.subarray(2);
    if (x.length !== 32) throw new DidResolutionError('did.invalid', 'The Ed25519 key has the wrong length');
    return { kty: 'OKP', crv: 'Ed25519', x: b64u(x) };
  }
  if (a === 0xe7 && b === 0x01) return ecJwk('secp256k1', 'secp256k1', bytes.subarray(2), 32);
  if (a === 0x80 && b === 0x24) return ecJwk('P-256', 'prime256v1', bytes.subarray(2), 32);
  if (a === 0x81 && b === 0x24) return ecJwk('P-384', 'secp384r1', bytes.subarray(2), 48);
  if (a === 0xd1 && b === 0xd6 && c === 0x03) {
    try {
      const jwk = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(3))) as JWK;
      if (typeof jwk !== 'object' || jwk === null || typeof jwk.kty !== 'string') throw new Error('not a JWK');
      return jwk;
    } catch {
      throw new DidResolutionError('did.invalid', 'The jwk_jcs-pub key is not a JSON JWK');
    }
  }
  throw new DidResolutionError('did.key_not_found', 'The multicodec key type is not supported');
}
