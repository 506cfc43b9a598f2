import 'reflect-metadata';
import type { PolicyResult, SessionTranscriptInput } from '@vp-authorizer/core';
import { sessionTranscriptBytes } from '@vp-authorizer/core/formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMdocFixture, type MdocFixture } from '../__fixtures__/mdoc-issuer.js';
import { createTestCa, generateTestKeys, type TestCa } from '@vp-authorizer/testing';
import { CLIENT_ID, NONCE, RESPONSE_URI, signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from './local-verifier.js';

const redirect: SessionTranscriptInput = { kind: 'redirect', clientId: CLIENT_ID, nonce: NONCE, responseUri: RESPONSE_URI, jwkThumbprint: null };
const codes = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error!.code);

let ca: TestCa;
let fx: MdocFixture;
beforeAll(async () => {
  ca = await createTestCa();
  fx = await createMdocFixture(ca);
});

describe('localVerifier.supportedAlgorithms', () => {
  it('declares the default allowedAlgs with their COSE ids, and ES256 only under HAIP', () => {
    const verifier = localVerifier({ trustAnchors: [ca.pem] });
    expect(verifier.supportedAlgorithms!(undefined)).toEqual({ jose: ['ES256', 'ES384', 'ES512', 'EdDSA'], cose: [-7, -9, -35, -36, -8, -19] });
    expect(verifier.supportedAlgorithms!('haip')).toEqual({ jose: ['ES256'], cose: [-7, -9] });
  });

  it('computes each profile once and hands out a frozen value that no caller can change', () => {
    const verifier = localVerifier({ trustAnchors: [ca.pem] });
    const first = verifier.supportedAlgorithms!(undefined);
    expect(verifier.supportedAlgorithms!(undefined)).toBe(first);
    expect(verifier.supportedAlgorithms!('haip')).toBe(verifier.supportedAlgorithms!('haip'));
    expect(() => (first.jose as string[]).push('RS256')).toThrow(TypeError);
    expect(() => (first.cose as number[]).push(-257)).toThrow(TypeError);
    expect(() => Object.assign(first, { jose: ['RS256'] })).toThrow(TypeError);
    expect(verifier.supportedAlgorithms!(undefined)).toEqual({ jose: ['ES256', 'ES384', 'ES512', 'EdDSA'], cose: [-7, -9, -35, -36, -8, -19] });
  });

  it('is fixed at construction: editing the allowedAlgs array passed in changes nothing', () => {
    const allowedAlgs: ('ES256' | 'EdDSA')[] = ['ES256'];
    const verifier = localVerifier({ trustAnchors: [ca.pem], allowedAlgs });
    allowedAlgs.push('EdDSA');
    expect(verifier.supportedAlgorithms!(undefined)).toEqual({ jose: ['ES256'], cose: [-7, -9] });
  });

  it('follows allowedAlgs: what it declares is what verify accepts (ES384 mdoc issuerAuth)', async () => {
    const signer384 = await ca.issue({ subject: 'CN=mDL Document Signer ES384,C=DE', keys: await generateTestKeys('P-384') });
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), signerCert: signer384, issuerAlg: 'ES384' });
    const verify = (verifier: ReturnType<typeof localVerifier>, profile?: 'haip') => {
      const input = verifyInput([], profile ? { profile } : {});
      input.presentations = [{ kind: 'mdoc', path: ['mdl', 0], queryId: 'mdl', index: 0, format: 'mso_mdoc', raw, version: '1.0', status: 0, documents: [] }];
      return verifier.verify(input, { signal: signal() });
    };

    const all = localVerifier({ trustAnchors: [ca.pem] });
    expect(all.supportedAlgorithms!(undefined).cose).toContain(-35);
    expect(codes(await verify(all))).toEqual([]);
    expect(all.supportedAlgorithms!('haip').cose).not.toContain(-35);
    expect(codes(await verify(all, 'haip'))).toContain('proof.algorithm_not_allowed');

    const es256 = localVerifier({ trustAnchors: [ca.pem], allowedAlgs: ['ES256'] });
    expect(es256.supportedAlgorithms!(undefined)).toEqual({ jose: ['ES256'], cose: [-7, -9] });
    expect(codes(await verify(es256))).toContain('proof.algorithm_not_allowed');
  });
});
