import { createCipheriv, createECDH, createHash, randomBytes } from 'node:crypto';
import { toBase64Url } from '@vp-authorizer/testing';


const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const lv = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);

/** RFC 7518 section 4.6.2: Concat KDF (one SHA-256 round suffices for 128/256-bit keys). */
function concatKdf(z: Uint8Array, enc: string, bits: number, apu: Uint8Array, apv: Uint8Array): Buffer {
  const otherInfo = Buffer.concat([lv(Buffer.from(enc)), lv(apu), lv(apv), u32(bits)]);
  return createHash('sha256').update(Buffer.concat([u32(1), z, otherInfo])).digest().subarray(0, bits / 8);
}

export interface JweSpec {
  /** Header members; `epk` is filled with the real ephemeral key unless given (null = omit). */
  header: Record<string, unknown>;
  /** Exact protected-header JSON text (duplicate members, odd whitespace); overrides `header` serialisation. */
  headerText?: (header: Record<string, unknown>) => string;
  /** Content-encryption algorithm actually used for the key derivation and AES-GCM. */
  cipherEnc: 'A128GCM' | 'A256GCM';
  plaintext: Uint8Array;
}

/**
 * A compact ECDH-ES (direct key agreement) JWE built by hand with node:crypto, so that every
 * header member can be wrong on purpose while the cryptography stays right, which jose's
 * encrypt API does not allow. Checked against the authorizer's decryption in jwe.fuzz.test.ts.
 */
export function ecdhEsJwe(recipient: JsonWebKey, spec: JweSpec): string {
  // Raw points from createECDH, not generateKeyPairSync + export({ format: 'jwk' }): on Node 20 a
  // garbage collection that lands inside the export of a just-generated key deadlocks the
  // process, and this runs hundreds of times per fuzz test.
  const eph = createECDH('prime256v1');
  const point = eph.generateKeys(); // uncompressed: 0x04 ‖ x ‖ y
  const epk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
  const header: Record<string, unknown> = { ...spec.header };
  if (!('epk' in header)) header.epk = epk;
  else if (header.epk === null) delete header.epk;
  const text = spec.headerText ? spec.headerText(header) : JSON.stringify(header);
  const protectedB64 = toBase64Url(text);
  const recipientPoint = Buffer.concat([Buffer.from([4]), Buffer.from(recipient.x ?? '', 'base64url'), Buffer.from(recipient.y ?? '', 'base64url')]);
  const z = eph.computeSecret(recipientPoint);
  const fromB64 = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'base64url') : Buffer.alloc(0));
  const bits = spec.cipherEnc === 'A128GCM' ? 128 : 256;
  const cek = concatKdf(z, spec.cipherEnc, bits, fromB64(header.apu), fromB64(header.apv));
  const iv = randomBytes(12);
  const cipher = createCipheriv(bits === 128 ? 'aes-128-gcm' : 'aes-256-gcm', cek, iv);
  cipher.setAAD(Buffer.from(protectedB64, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(spec.plaintext), cipher.final()]);
  return `${protectedB64}..${toBase64Url(iv)}.${toBase64Url(ciphertext)}.${toBase64Url(cipher.getAuthTag())}`;
}
