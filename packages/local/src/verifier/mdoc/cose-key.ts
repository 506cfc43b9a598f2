import type { JsonWebKey } from 'node:crypto';
import { bytesToBase64Url } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';
import { isBytes, isMap } from './mdoc-cbor.js';

const EC2_CURVES: Record<number, string> = { 1: 'P-256', 2: 'P-384', 3: 'P-521' };
const OKP_CURVES: Record<number, string> = { 6: 'Ed25519' };

/** COSE_Key (RFC 9053: kty 1 = OKP, 2 = EC2; crv -1, x -2, y -3) → public JWK. */
export function coseKeyToJwk(coseKey: unknown): JsonWebKey {
  const fail = (detail: string) => new PolicyFailure('mdoc.device_key_invalid', detail);
  if (!isMap(coseKey)) throw fail('The MSO device key is not a COSE_Key map');
  const kty = coseKey.get(1);
  const crv = coseKey.get(-1);
  const x = coseKey.get(-2);
  if (typeof crv !== 'number' || !isBytes(x)) throw fail('The MSO device key lacks crv or x');
  if (kty === 2) {
    const y = coseKey.get(-3);
    const name = EC2_CURVES[crv];
    if (!name) throw fail('The MSO device key curve is not supported');
    // y may be a sign bit (compressed point); only full coordinates are supported.
    if (!isBytes(y)) throw fail('The MSO device key must carry its y coordinate');
    return { kty: 'EC', crv: name, x: bytesToBase64Url(x), y: bytesToBase64Url(y) };
  }
  if (kty === 1) {
    const name = OKP_CURVES[crv];
    if (!name) throw fail('The MSO device key curve is not supported');
    return { kty: 'OKP', crv: name, x: bytesToBase64Url(x) };
  }
  throw fail('The MSO device key type is not supported');
}
