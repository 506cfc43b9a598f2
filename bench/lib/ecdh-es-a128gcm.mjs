// JWE compact with ECDH-ES (direct key agreement, RFC 7518 §4.6) and A128GCM on node:crypto: one
// ECDH, one Concat KDF round, one AES-GCM. The bench wallet encrypts with it, the floor decrypts.
import { createCipheriv, createDecipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, randomBytes } from 'node:crypto';

const b64u = (data) => Buffer.from(data).toString('base64url');

/** Encrypt `plaintext` to the P-256 public `jwk` (its `kid` goes into the header), without apu/apv. */
export function encryptEcdhEsA128Gcm(plaintext, jwk) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const shared = diffieHellman({ privateKey, publicKey: createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' }) });
  const protectedB64 = b64u(JSON.stringify({ alg: 'ECDH-ES', enc: 'A128GCM', kid: jwk.kid, epk: { kty, crv, x, y } }));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-128-gcm', contentKey(shared, {}), iv);
  cipher.setAAD(Buffer.from(protectedB64));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${protectedB64}..${b64u(iv)}.${b64u(ciphertext)}.${b64u(cipher.getAuthTag())}`;
}

/** Decrypt a compact JWE made for `privateKey` (a P-256 KeyObject); throws on anything else. */
export function decryptEcdhEsA128Gcm(compact, privateKey) {
  const [protectedB64, encryptedKey, ivB64, ciphertextB64, tagB64] = compact.split('.');
  const header = JSON.parse(Buffer.from(protectedB64, 'base64url').toString('utf8'));
  if (header.alg !== 'ECDH-ES' || header.enc !== 'A128GCM' || encryptedKey !== '') throw new Error('not ECDH-ES/A128GCM');
  const shared = diffieHellman({ privateKey, publicKey: createPublicKey({ key: header.epk, format: 'jwk' }) });
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
