import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { certificateDer, x509Hash } from './x509-hash.js';

describe('x509Hash', () => {
  it('is base64url-nopad SHA-256 of the bytes (FIPS 180-2 "abc" vector)', () => {
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad
    expect(x509Hash(new Uint8Array([0x61, 0x62, 0x63]))).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(x509Hash('YWJj')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('decodes x5c standard base64 (with + and /) rather than hashing the text', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0x00]);
    const std = Buffer.from(bytes).toString('base64');
    expect(std).toMatch(/[+/]/);
    const expected = x509Hash(bytes);
    expect(x509Hash(std)).toBe(expected);
    expect(x509Hash(Buffer.from(bytes).toString('base64url'))).toBe(expected);
    expect(expected).not.toMatch(/[+/=]/);
    expect(expected).toHaveLength(43);
  });

  it('hashes the DER of a real certificate identically from PEM, x5c base64 and raw DER', async () => {
    const { leafCertificatePem } = await generateDevSigningKey();
    const der = new X509Certificate(leafCertificatePem).raw;
    const fromDer = x509Hash(new Uint8Array(der));
    expect(x509Hash(der.toString('base64'))).toBe(fromDer);
    expect(x509Hash(leafCertificatePem)).toBe(fromDer);
    expect(fromDer).not.toBe(x509Hash(Buffer.from(der.toString('base64'))));
  });

  it('rejects text that is not base64', () => {
    expect(() => certificateDer('not base64!')).toThrow(TypeError);
    expect(() => x509Hash('')).toThrow(TypeError);
  });
});
