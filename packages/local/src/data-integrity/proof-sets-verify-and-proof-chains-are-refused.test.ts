import type { ParsedLdp, PolicyResult } from '@vp-authorizer/core';
import { runFormatPolicy } from '@vp-authorizer/core/formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDidKey, issueCredential, unsignedCredential, type DidKeyHolder } from '../__fixtures__/data-integrity-issuer.js';
import { signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../verifier/local-verifier.js';

// Data Integrity 1.0 secures a document with a proof set (independent proofs over the document)
// or a proof chain (a proof over the document and the proofs its previousProof names).
// jsonld-signatures verifies every proof over the document alone, so sets are verified and a
// chain, which it would read as a bad signature, is refused by name before any cryptography.

const verifier = localVerifier({ trustAnchors: [] });
function parsed(raw: Record<string, unknown>): ParsedLdp {
  const outcome = runFormatPolicy({ query: { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format: 'ldp_vc' }] } }, responseType: 'vp_token', vpToken: { vc: [raw] } });
  if (!outcome.ok) throw new Error('format policy rejected the token');
  return outcome.presentations[0] as ParsedLdp;
}
const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);
const verify = (raw: Record<string, unknown>) => verifier.verify(verifyInput([parsed(raw)], { holderBindingRequired: { vc: false } }), { signal: signal() });

let issuer: DidKeyHolder;
let credential: Record<string, unknown>;
/** Two proofs by the issuer's key over the same credential, each made by @digitalbazaar/vc. */
let proofs: Record<string, unknown>[];

beforeAll(async () => {
  issuer = await createDidKey('Ed25519');
  credential = unsignedCredential(issuer.did, { id: 'did:example:holder', name: 'Erika' });
  const first = await issueCredential(credential, issuer, 'eddsa-rdfc-2022');
  const second = await issueCredential(credential, issuer, 'eddsa-jcs-2022');
  proofs = [first.proof as Record<string, unknown>, second.proof as Record<string, unknown>];
});

describe('Data Integrity proof sets and proof chains', () => {
  it('a proof set of two proofs (eddsa-rdfc-2022 and eddsa-jcs-2022) verifies; either proof changed fails it', async () => {
    const results = await verify({ ...credential, proof: proofs });
    expect(errorsOf(results)).toEqual([]);
    expect(results.find((r) => r.policy === 'proof')!.data).toMatchObject({ cryptosuite: 'eddsa-rdfc-2022 eddsa-jcs-2022' });
    const changed = { ...proofs[1]!, created: '2020-01-01T00:00:00Z' };
    expect(errorsOf(await verify({ ...credential, proof: [proofs[0], changed] }))).toEqual(['proof:proof.signature_invalid']);
  });

  it('a proof naming a previousProof is refused with data_integrity.proof_chain_unsupported', async () => {
    const chained = [
      { ...proofs[0], id: 'urn:uuid:6a3f2d6e-1b1c-4b0e-9d0c-000000000001' },
      { ...proofs[1], previousProof: 'urn:uuid:6a3f2d6e-1b1c-4b0e-9d0c-000000000001' },
    ];
    const results = await verify({ ...credential, proof: chained });
    expect(errorsOf(results)).toEqual(['proof:data_integrity.proof_chain_unsupported']);
    // A single proof naming one too: the chain is what is refused, not the number of proofs.
    expect(errorsOf(await verify({ ...credential, proof: { ...proofs[0], previousProof: 'urn:uuid:elsewhere' } }))).toEqual(['proof:data_integrity.proof_chain_unsupported']);
  });
});
