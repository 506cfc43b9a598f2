import { createPublicKey, type KeyObject } from 'node:crypto';

/** DER of the P-256 curve OID (1.2.840.10045.3.1.7), as CKA_EC_PARAMS holds it. */
export const P256_EC_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');
/** SubjectPublicKeyInfo prefix for an uncompressed P-256 point (id-ecPublicKey, prime256v1). */
const SPKI_P256_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/**
 * The public key of a token's CKA_EC_POINT. PKCS#11 2.40 says the point is DER-encoded (an OCTET
 * STRING around the 65-byte uncompressed point); some tokens give the raw point: accept both.
 */
export function publicKeyFromEcPoint(ecPoint: Buffer): KeyObject {
  let point = ecPoint;
  if (point.length === 67 && point[0] === 0x04 && point[1] === 65) point = point.subarray(2);
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('the key\'s CKA_EC_POINT is not an uncompressed P-256 point');
  return createPublicKey({ key: Buffer.concat([SPKI_P256_PREFIX, point]), format: 'der', type: 'spki' });
}
