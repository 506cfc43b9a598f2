import type { ParsedLdp, PolicyResult } from '@vp-authorizer/core';
import { runFormatPolicy } from '@vp-authorizer/core/formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDidKey, issueCredential, unsignedCredential, type DidKeyHolder } from '../__fixtures__/data-integrity-issuer.js';
import { signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../verifier/local-verifier.js';
import { DEFAULT_DOCUMENT_LIMITS, measureDocument } from './document-limits.js';

// JSON-LD copies the whole active context to process every context a document defines itself
// (a term's scoped context too, used or not): 300 scoped term definitions cost the verifier about
// half a second of JSON-LD processing within the value limits. They are counted with the other
// limits, before any JSON-LD work, and refused beyond them.

const V2 = 'https://www.w3.org/ns/credentials/v2';
const EXAMPLES = 'https://www.w3.org/ns/credentials/examples/v2';
const scopedTerms = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { '@id': `https://e.example/t${i}`, '@context': { [`u${i}`]: `https://e.example/u${i}` } }]));
const plainTerms = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, `https://e.example/p${i}`]));

function parsed(raw: Record<string, unknown>): ParsedLdp {
  const outcome = runFormatPolicy({ query: { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format: 'ldp_vc' }] } }, responseType: 'vp_token', vpToken: { vc: [raw] } });
  if (!outcome.ok) throw new Error('format policy rejected the token');
  return outcome.presentations[0] as ParsedLdp;
}
const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);
const verify = (raw: Record<string, unknown>, verifier = localVerifier({ trustAnchors: [] })) =>
  verifier.verify(verifyInput([parsed(raw)], { holderBindingRequired: { vc: false } }), { signal: signal() });

let issuer: DidKeyHolder;
beforeAll(async () => {
  issuer = await createDidKey('Ed25519');
});

describe('measureDocument counts the contexts a document defines itself', () => {
  it('counts embedded context objects, scoped contexts (objects and URLs) and @imports at any depth, and their terms', () => {
    const document = {
      '@context': [V2, { '@import': EXAMPLES, a: 'https://e.example/a', b: { '@id': 'https://e.example/b', '@context': { c: 'https://e.example/c' } } }],
      credentialSubject: { '@context': { d: { '@id': 'https://e.example/d', '@context': V2 } }, d: 'x' },
    };
    const measure = measureDocument(document, DEFAULT_DOCUMENT_LIMITS);
    // {a, b}, b's scoped {c}, the @import, the node's {d}, d's scoped URL.
    expect(measure.embeddedContexts).toBe(5);
    expect(measure.termDefinitions).toBe(4);
    expect([...measure.contexts].sort()).toEqual([EXAMPLES, V2]);
  });

  it('refuses beyond maxEmbeddedContexts or maxTermDefinitions with data_integrity.limit_exceeded', () => {
    const limits = { ...DEFAULT_DOCUMENT_LIMITS, maxEmbeddedContexts: 4, maxTermDefinitions: 10 };
    expect(() => measureDocument({ '@context': [V2, scopedTerms(3)] }, limits)).not.toThrow();
    expect(() => measureDocument({ '@context': [V2, scopedTerms(4)] }, limits)).toThrow(/more than 4 contexts/);
    expect(() => measureDocument({ '@context': [V2, plainTerms(10)] }, limits)).not.toThrow();
    expect(() => measureDocument({ '@context': [V2, plainTerms(11)] }, limits)).toThrow(/more than 10 terms/);
  });
});

describe('localVerifier refuses a credential defining too many contexts before any JSON-LD work', () => {
  it('a credential issued with 300 scoped term definitions is refused with data_integrity.limit_exceeded, and verifies where the limits allow it', { timeout: 30_000 }, async () => {
    const credential = unsignedCredential(issuer.did, { id: 'did:example:holder', t0: { u0: 'x' } });
    credential['@context'] = [V2, EXAMPLES, scopedTerms(300)];
    const vc = await issueCredential(credential, issuer, 'eddsa-rdfc-2022');
    const refused = await verify(vc);
    expect(errorsOf(refused)).toEqual(['format:data_integrity.limit_exceeded']);
    // The same credential is genuine: only the limits refused it.
    const generous = localVerifier({ trustAnchors: [], dataIntegrity: { maxEmbeddedContexts: 301, maxTermDefinitions: 600 } });
    expect(errorsOf(await verify(vc, generous))).toEqual([]);
  });

  it('a credential issued with 40 scoped term definitions (80 terms) is refused by the context count', { timeout: 30_000 }, async () => {
    const credential = unsignedCredential(issuer.did, { id: 'did:example:holder', t0: { u0: 'x' } });
    credential['@context'] = [V2, EXAMPLES, scopedTerms(40)];
    const vc = await issueCredential(credential, issuer, 'eddsa-rdfc-2022');
    const refused = await verify(vc);
    expect(errorsOf(refused)).toEqual(['format:data_integrity.limit_exceeded']);
    expect(refused.find((r) => r.error)!.error!.detail).toMatch(/more than 32 contexts/);
    expect(errorsOf(await verify(vc, localVerifier({ trustAnchors: [], dataIntegrity: { maxEmbeddedContexts: 41 } })))).toEqual([]);
  });

  it('a credential whose own context defines 300 plain terms is refused with data_integrity.limit_exceeded', { timeout: 30_000 }, async () => {
    const credential = unsignedCredential(issuer.did, { id: 'did:example:holder', p0: 'x' });
    credential['@context'] = [V2, EXAMPLES, plainTerms(300)];
    const vc = await issueCredential(credential, issuer, 'eddsa-rdfc-2022');
    const refused = await verify(vc);
    expect(errorsOf(refused)).toEqual(['format:data_integrity.limit_exceeded']);
    expect(refused.find((r) => r.error)!.error!.detail).toMatch(/more than 256 terms/);
  });

  it('the limits are options, refused at construction out of range', () => {
    expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { maxEmbeddedContexts: 0 } })).toThrow(/Invalid localVerifier options/);
    expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { maxTermDefinitions: 1.5 } })).toThrow(/Invalid localVerifier options/);
  });
});
