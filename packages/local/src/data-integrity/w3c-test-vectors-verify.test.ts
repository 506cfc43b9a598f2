import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { readSharedJson } from '../__fixtures__/shared-testdata.js';
import { resolveDidDocument } from '../did/resolve-did-key.js';
import { outboundFetchPolicy } from '@vp-authorizer/core';
import { signal as freshSignal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../verifier/local-verifier.js';
import { PolicyFailure } from '../verifier/policy-failure.js';
import { BUNDLED_CONTEXTS } from './bundled-contexts.js';
import { DATA_INTEGRITY_CRYPTOSUITES } from './cryptosuites.js';
import { DEFAULT_DOCUMENT_LIMITS } from './document-limits.js';
import { verifyDataIntegrityProof, type DataIntegrityEnvironment } from './verify-data-integrity-proof.js';

/** The secured documents of the W3C cryptosuite specifications' test vectors (shared/testdata/w3c-di). */
const VECTORS = [
  ['eddsa-rdfc-2022', 'vc-di-eddsa/TestVectors/eddsa-rdfc-2022/signedDataInt.json'],
  ['eddsa-rdfc-2022 (employ)', 'vc-di-eddsa/TestVectors/eddsa-rdfc-2022/employ/signedDataInt.json'],
  ['eddsa-jcs-2022', 'vc-di-eddsa/TestVectors/eddsa-jcs-2022/signedJCS.json'],
  ['ecdsa-rdfc-2019 P-256', 'vc-di-ecdsa/TestVectors/ecdsa-rdfc-2019-p256/signedECDSAP256.json'],
  ['ecdsa-rdfc-2019 P-256 (employ)', 'vc-di-ecdsa/TestVectors/ecdsa-rdfc-2019-p256/employ/signedECDSAP256.json'],
  ['ecdsa-rdfc-2019 P-384', 'vc-di-ecdsa/TestVectors/ecdsa-rdfc-2019-p384/signedECDSAP384.json'],
  ['ecdsa-rdfc-2019 P-384 (employ)', 'vc-di-ecdsa/TestVectors/ecdsa-rdfc-2019-p384/employ/signedECDSAP384.json'],
  ['ecdsa-jcs-2019 P-256', 'vc-di-ecdsa/TestVectors/ecdsa-jcs-2019-p256/signedJCSECDSAP256.json'],
  ['ecdsa-jcs-2019 P-384', 'vc-di-ecdsa/TestVectors/ecdsa-jcs-2019-p384/signedJCSECDSAP384.json'],
] as const;

const didMethods = v.parse(didMethodsConfigSchema, {});
const environment = (overrides: Partial<DataIntegrityEnvironment> = {}): DataIntegrityEnvironment => {
  const signal = new AbortController().signal;
  return {
    contexts: BUNDLED_CONTEXTS,
    cryptosuites: new Set(DATA_INTEGRITY_CRYPTOSUITES),
    limits: DEFAULT_DOCUMENT_LIMITS,
    canonicalizationTimeoutMs: 5_000,
    signal,
    now: Date.parse('2026-01-01T00:00:00Z'),
    skewMs: 0,
    resolveDid: (did) => resolveDidDocument(did, { didMethods, outbound: outboundFetchPolicy({}), timeoutMs: 1_000, maxBytes: 10_000, signal }),
    ...overrides,
  };
};

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'verified';
  } catch (error) {
    if (error instanceof PolicyFailure) return error.code;
    throw error;
  }
};

describe('the W3C cryptosuite test vectors verify with the bundled contexts and did:key', () => {
  it.each(VECTORS)('%s', async (_name, file) => {
    const document = readSharedJson('w3c-di', file);
    const proof = document.proof as Record<string, unknown>;
    const verified = await verifyDataIntegrityProof(document, { term: 'assertionMethod' }, environment());
    expect(verified.verificationMethod).toBe(proof.verificationMethod);
    expect(verified.controller).toBe(String(proof.verificationMethod).split('#')[0]);
    expect(verified.cryptosuites).toEqual([proof.cryptosuite]);
  });

  it.each(VECTORS)('%s, with one claim changed, fails as proof.signature_invalid', async (_name, file) => {
    const document = readSharedJson('w3c-di', file);
    const subject = document.credentialSubject as Record<string, unknown>;
    subject.id = 'did:example:someone-else';
    expect(await codeOf(verifyDataIntegrityProof(document, { term: 'assertionMethod' }, environment()))).toBe('proof.signature_invalid');
  });

  it.each(VECTORS)('%s, with its proof value from another vector, fails as proof.signature_invalid', async (_name, file) => {
    const document = readSharedJson('w3c-di', file);
    const other = readSharedJson('w3c-di', file === VECTORS[0][1] ? VECTORS[1][1] : VECTORS[0][1]);
    (document.proof as Record<string, unknown>).proofValue = (other.proof as Record<string, unknown>).proofValue;
    expect(await codeOf(verifyDataIntegrityProof(document, { term: 'assertionMethod' }, environment()))).toBe('proof.signature_invalid');
  });

  it('a vector whose suite the operator did not accept is refused before any verification', async () => {
    const document = readSharedJson('w3c-di', VECTORS[0][1]);
    expect(await codeOf(verifyDataIntegrityProof(document, { term: 'assertionMethod' }, environment({ cryptosuites: new Set(['ecdsa-rdfc-2019']) })))).toBe('data_integrity.cryptosuite_unsupported');
  });

  it('a vector presented for another proof purpose fails as data_integrity.proof_invalid', async () => {
    const document = readSharedJson('w3c-di', VECTORS[0][1]);
    (document.proof as Record<string, unknown>).proofPurpose = 'authentication';
    expect(await codeOf(verifyDataIntegrityProof(document, { term: 'assertionMethod' }, environment()))).toBe('data_integrity.proof_invalid');
  });

  it.each(VECTORS)('%s through localVerifier: the proof verifies, and the issuer, which is not the key controller in every vector, fails proof.issuer_mismatch', async (_name, file) => {
    const raw = readSharedJson('w3c-di', file);
    const results = await localVerifier({ trustAnchors: [] }).verify(verifyInput([{ kind: 'ldp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'ldp_vc', raw }], { holderBindingRequired: { vc: false } }), { signal: freshSignal() });
    expect(results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`)).toEqual(['proof:proof.issuer_mismatch']);
  });
});
