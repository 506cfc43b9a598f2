import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { handoverInfoHash, jwkThumbprint, sessionTranscriptBytes } from './session-transcript.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const b64u = (h: string) => Buffer.from(h, 'hex').toString('base64url');

// OpenID4VP 1.0 B.2.6 example values.
const jwk = { kty: 'EC', crv: 'P-256', x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0', y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc' };
const nonce = 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA';
const redirectHash = '048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac';
const dcApiHash = 'fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a';

describe('jwkThumbprint', () => {
  it('computes the RFC 7638 SHA-256 thumbprint of the spec example key', async () => {
    const thumbprint = await jwkThumbprint(jwk);
    const h = hex(Buffer.from(thumbprint, 'base64url'));
    expect(h).toHaveLength(64);
    expect(h.startsWith('4283ec927ae0f208')).toBe(true);
    expect(h.endsWith('6bd669047')).toBe(true);
  });

  it('agrees with jose for EC, OKP and RSA keys and refuses a key without its required members', async () => {
    for (const key of [generateKeyPairSync('ec', { namedCurve: 'P-384' }), generateKeyPairSync('ed25519'), generateKeyPairSync('rsa', { modulusLength: 2048 })]) {
      const publicJwk = key.publicKey.export({ format: 'jwk' });
      expect(await jwkThumbprint(publicJwk as JsonWebKey)).toBe(await calculateJwkThumbprint(publicJwk as never, 'sha256'));
    }
    await expect(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x } as JsonWebKey)).rejects.toThrow(TypeError);
    await expect(jwkThumbprint({ crv: 'P-256', x: jwk.x, y: jwk.y } as JsonWebKey)).rejects.toThrow(TypeError);
  });

  it('ignores non-required members (kid, alg, use)', async () => {
    expect(await jwkThumbprint({ ...jwk, kid: 'k1', alg: 'ECDH-ES', use: 'enc' } as JsonWebKey)).toBe(await jwkThumbprint(jwk));
  });
});

describe('OpenID4VP 1.0 handover', () => {
  it('redirect handover info hash and SessionTranscript match the spec example', async () => {
    const input = { kind: 'redirect' as const, clientId: 'x509_san_dns:example.com', nonce, jwkThumbprint: await jwkThumbprint(jwk), responseUri: 'https://example.com/response' };
    expect(hex(handoverInfoHash(input))).toBe(redirectHash);
    expect(hex(sessionTranscriptBytes(input))).toBe(`83f6f682714f70656e494434565048616e646f7665725820${redirectHash}`);
  });

  it('DC API handover info hash matches the spec example and uses its own handover name', async () => {
    const input = { kind: 'dc_api' as const, origin: 'https://example.com', nonce, jwkThumbprint: await jwkThumbprint(jwk) };
    expect(hex(handoverInfoHash(input))).toBe(dcApiHash);
    // [null, null, ["OpenID4VPDCAPIHandover", bstr(32)]]
    const name = Buffer.from('OpenID4VPDCAPIHandover').toString('hex');
    expect(hex(sessionTranscriptBytes(input))).toBe(`83f6f68276${name}5820${dcApiHash}`);
  });

  it('encodes a null thumbprint (unencrypted response) as CBOR null, changing the hash', async () => {
    const withKey = { kind: 'redirect' as const, clientId: 'x509_san_dns:example.com', nonce, jwkThumbprint: await jwkThumbprint(jwk), responseUri: 'https://example.com/response' };
    const withoutKey = { ...withKey, jwkThumbprint: null };
    expect(hex(handoverInfoHash(withoutKey))).not.toBe(redirectHash);
    expect(hex(handoverInfoHash(withoutKey))).toHaveLength(64);
  });

  it('rejects a thumbprint that is not a base64url SHA-256 digest', () => {
    expect(() => handoverInfoHash({ kind: 'dc_api', origin: 'https://example.com', nonce, jwkThumbprint: b64u('00ff') })).toThrow(TypeError);
    expect(() => handoverInfoHash({ kind: 'dc_api', origin: 'https://example.com', nonce, jwkThumbprint: 'not base64url!' })).toThrow(TypeError);
  });
});
