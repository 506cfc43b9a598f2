import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwkThumbprint, sessionTranscriptBytes } from '../crypto/session-transcript.js';
import type { AuthorizationRequestParameters } from '../model/authorization-record.js';
import { sessionTranscriptInput } from './session-transcript-input.js';

const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JsonWebKey;
const request = { nonce: 'n-1', clientId: 'x509_hash:abc', responseUri: 'https://verifier.example/post' } as AuthorizationRequestParameters;

describe('sessionTranscriptInput', () => {
  it('carries the RFC 7638 thumbprint of the encryption key, in reads, spreads and JSON alike', async () => {
    const expected = await jwkThumbprint(jwk);
    const input = sessionTranscriptInput(request, { encryptionJwk: jwk });
    expect(input).toEqual({ kind: 'redirect', clientId: 'x509_hash:abc', nonce: 'n-1', responseUri: 'https://verifier.example/post', jwkThumbprint: expected });
    expect({ ...input }.jwkThumbprint).toBe(expected);
    expect(JSON.parse(JSON.stringify(input)).jwkThumbprint).toBe(expected);
    const eager = { kind: 'redirect' as const, clientId: 'x509_hash:abc', nonce: 'n-1', responseUri: 'https://verifier.example/post', jwkThumbprint: expected };
    expect(sessionTranscriptBytes(input)).toEqual(sessionTranscriptBytes(eager));
  });

  it('uses the DC API shape with the origin, and null when the response was not encrypted', () => {
    expect(sessionTranscriptInput(request, { origin: 'https://rp.example', encryptionJwk: null })).toEqual({ kind: 'dc_api', origin: 'https://rp.example', nonce: 'n-1', jwkThumbprint: null });
    expect(sessionTranscriptInput(request, { encryptionJwk: null }).jwkThumbprint).toBeNull();
  });

  it('does not compute the thumbprint until something reads it', () => {
    // A key the thumbprint cannot be computed for: building the input must not touch it.
    const broken = { kty: 'EC', crv: 'P-256', x: jwk.x } as JsonWebKey;
    const input = sessionTranscriptInput(request, { encryptionJwk: broken });
    expect(input.kind).toBe('redirect');
    expect(() => input.jwkThumbprint).toThrow(TypeError);
  });
});
