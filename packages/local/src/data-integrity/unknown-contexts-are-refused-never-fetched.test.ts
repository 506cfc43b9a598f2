import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedLdp, PolicyResult } from '@vp-authorizer/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDidKey, unsignedCredential, type DidKeyHolder } from '../__fixtures__/data-integrity-issuer.js';
import { signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../verifier/local-verifier.js';

/** A server that would answer any context request: it must never see one. */
let hits = 0;
const server = createServer((_req, res) => {
  hits++;
  res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify({ '@context': { '@vocab': 'https://evil.example/#' } }));
});
let base: string;
let issuer: DidKeyHolder;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = await createDidKey('Ed25519');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Even with every destination allowed, contexts are not a fetch the verifier makes.
const verifier = localVerifier({ trustAnchors: [], outboundFetch: { dangerouslyAllowAnyDestination: true } });
const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);

/** A bare credential with a well-formed but unverifiable proof: contexts are processed before any signature check. */
function credential(context: unknown[]): ParsedLdp {
  const raw = {
    ...unsignedCredential(issuer.did, { id: 'did:example:holder' }),
    '@context': context,
    proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', verificationMethod: issuer.verificationMethod, created: '2024-01-01T00:00:00Z', proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKiPaeCuyFF5y6gbjGT' },
  };
  return { kind: 'ldp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'ldp_vc', raw };
}
const verify = (p: ParsedLdp) => verifier.verify(verifyInput([p], { holderBindingRequired: { vc: false } }), { signal: signal() });

describe('JSON-LD contexts outside the bundled and configured set', () => {
  it('a context URL in @context is refused as data_integrity.context_unknown, and nothing is fetched', async () => {
    expect(errorsOf(await verify(credential(['https://www.w3.org/ns/credentials/v2', `${base}/context`])))).toEqual(['format:data_integrity.context_unknown']);
    expect(hits).toBe(0);
  });

  it('a context that JSON-LD processing would import (@import in an embedded context) is refused the same way, before any JSON-LD work', async () => {
    expect(errorsOf(await verify(credential(['https://www.w3.org/ns/credentials/v2', { '@import': `${base}/imported` }])))).toEqual(['format:data_integrity.context_unknown']);
    expect(hits).toBe(0);
  });

  it('a scoped context naming a URL deep inside an embedded context is refused before any processing', async () => {
    expect(errorsOf(await verify(credential(['https://www.w3.org/ns/credentials/v2', { Thing: { '@id': 'https://x.example/Thing', '@context': `${base}/scoped` } }])))).toEqual(['format:data_integrity.context_unknown']);
    expect(hits).toBe(0);
  });
});
