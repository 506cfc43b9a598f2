import { describe, expect, it } from 'vitest';
import { handoverInfoHash, jwkThumbprintBytes, sessionTranscriptBytes } from './session-transcript.js';

// OpenID4VP 1.0 B.2.6 examples.
const jwk = { kty: 'EC', crv: 'P-256', x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0', y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc' };
const nonce = 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('OpenID4VP 1.0 SessionTranscript', () => {
  it('thumbprint of the example JWK', async () => {
    const thumbprint = hex(await jwkThumbprintBytes(jwk));
    expect(thumbprint.startsWith('4283ec927ae0f208')).toBe(true);
    expect(thumbprint.endsWith('6bd669047')).toBe(true);
  });

  it('redirect handover matches the spec example', async () => {
    const input = { kind: 'redirect', clientId: 'x509_san_dns:example.com', nonce, encryptionJwk: jwk, responseUri: 'https://example.com/response' } as const;
    expect(hex(await handoverInfoHash(input))).toBe('048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac');
    expect(hex(await sessionTranscriptBytes(input))).toBe(
      '83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac',
    );
  });

  it('DC API handover matches the spec example', async () => {
    const input = { kind: 'dc_api', origin: 'https://example.com', nonce, encryptionJwk: jwk } as const;
    expect(hex(await handoverInfoHash(input))).toBe('fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a');
    expect(hex(await sessionTranscriptBytes(input)).startsWith('83f6f68276' + Buffer.from('OpenID4VPDCAPIHandover').toString('hex') + '5820')).toBe(true);
  });

  it('a null thumbprint (unencrypted response) and another nonce give other hashes', async () => {
    const base = { kind: 'redirect', clientId: 'x509_san_dns:example.com', nonce, responseUri: 'https://example.com/response' } as const;
    const encrypted = hex(await handoverInfoHash({ ...base, encryptionJwk: jwk }));
    expect(hex(await handoverInfoHash({ ...base, encryptionJwk: null }))).not.toBe(encrypted);
    expect(hex(await handoverInfoHash({ ...base, nonce: 'other', encryptionJwk: jwk }))).not.toBe(encrypted);
  });
});
