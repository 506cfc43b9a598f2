// JWE compact with ECDH-ES (direct key agreement, RFC 7518 §4.6) and A128GCM on node:crypto: one
// ECDH, one Concat KDF round, one AES-GCM. The bench wallet encrypts with it, the floor decrypts.
// Ephemeral keys are ECDH objects with raw points rather than generateKeyPairSync + a JWK export:
// on Node 20.20 a garbage collection during that export can finalise the key's own generation
// job, which takes a lock the export holds, and the process hangs for good (seen in a server
// under this benchmark).
import { createCipheriv, createDecipheriv, createECDH, createHash, randomBytes } from 'node:crypto';

const b64u = (data) => Buffer.from(data).toString('base64url');

/** A fresh P-256 key pair: `{ ecdh, publicJwk }`; `ecdh` holds the private key for computeSecret. */
export function generateP256() {
  const ecdh = createECDH('prime256v1');
  const point = ecdh.generateKeys(); // uncompressed: 0x04 ‖ x ‖ y
  return { ecdh, publicJwk: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) } };
}

/** The uncompressed point of a P-256 public JWK; computeSecret refuses one that is not on the curve. */
function pointOf(jwk) {
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256') throw new Error('not a P-256 key');
  return Buffer.concat([Buffer.of(4), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
}

/** Encrypt `plaintext` to the P-256 public `jwk` (its `kid` goes into the header), without apu/apv. */
export function encryptEcdhEsA128Gcm(plaintext, jwk) {
  const { ecdh, publicJwk } = generateP256();
  const shared = ecdh.computeSecret(pointOf(jwk));
  const protectedB64 = b64u(JSON.stringify({ alg: 'ECDH-ES', enc: 'A128GCM', kid: jwk.kid, epk: publicJwk }));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-128-gcm', contentKey(shared, {}), iv);
  cipher.setAAD(Buffer.from(protectedB64));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${protectedB64}..${b64u(iv)}.${b64u(ciphertext)}.${b64u(cipher.getAuthTag())}`;
}

/** Decrypt a compact JWE made for the key `ecdh` holds (generateP256); throws on anything else. */
export function decryptEcdhEsA128Gcm(compact, ecdh) {
  const [protectedB64, encryptedKey, ivB64, ciphertextB64, tagB64] = compact.split('.');
  const header = JSON.parse(Buffer.from(protectedB64, 'base64url').toString('utf8'));
  if (header.alg !== 'ECDH-ES' || header.enc !== 'A128GCM' || encryptedKey !== '') throw new Error('not ECDH-ES/A128GCM');
  const shared = ecdh.computeSecret(pointOf(header.epk));
  const decipher = createDecipheriv('aes-128-gcm', contentKey(shared, header), Buffer.from(ivB64, 'base64url'));
  decipher.setAAD(Buffer.from(protectedB64));
  decipher.setAuthTag(Buffer.from(tagB64, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertextB64, 'base64url')), decipher.final()]).toString('utf8');
}

/** Concat KDF (NIST SP 800-56A) for A128GCM: one SHA-256 round gives the 128-bit key. */
function contentKey(shared, { apu = '', apv = '' }) {
  const lengthPrefixed = (data) => Buffer.concat([uint32(data.length), data]);
  const otherInfo = Buffer.concat([lengthPrefixed(Buffer.from('A128GCM')), lengthPrefixed(Buffer.from(apu, 'base64url')), lengthPrefixed(Buffer.from(apv, 'base64url')), uint32(128)]);
  return createHash('sha256').update(uint32(1)).update(shared).update(otherInfo).digest().subarray(0, 16);
}

function uint32(n) {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
}
