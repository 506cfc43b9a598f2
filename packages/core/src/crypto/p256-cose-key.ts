import { base64UrlToBytes, bytesToBase64Url } from './base64url.js';

// RFC 9052/9053 labels: kty 1 (EC2 = 2), crv -1 (P-256 = 1), x -2, y -3.
const KTY = 1;
const EC2 = 2;
const CRV = -1;
const P256 = 1;
const X = -2;
const Y = -3;

/** A P-256 public JWK as a COSE_Key (EC2, uncompressed coordinates), the shape EncryptionInfo carries. */
export function p256JwkToCoseKey(jwk: JsonWebKey): Map<number, number | Uint8Array> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new TypeError('p256JwkToCoseKey needs a P-256 EC key');
  return new Map<number, number | Uint8Array>([
    [KTY, EC2],
    [CRV, P256],
    [X, base64UrlToBytes(jwk.x)],
    [Y, base64UrlToBytes(jwk.y)],
  ]);
}

/** A COSE_Key holding a P-256 public key (EC2, 32-byte x and y) as a JWK; throws a TypeError otherwise. */
export function coseKeyToP256Jwk(key: unknown): JsonWebKey {
  if (!(key instanceof Map) || key.get(KTY) !== EC2 || key.get(CRV) !== P256) throw new TypeError('the COSE_Key is not an EC2 P-256 key');
  const x: unknown = key.get(X);
  const y: unknown = key.get(Y);
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32) throw new TypeError('the COSE_Key needs 32-byte x and y');
  return { kty: 'EC', crv: 'P-256', x: bytesToBase64Url(x), y: bytesToBase64Url(y) };
}
