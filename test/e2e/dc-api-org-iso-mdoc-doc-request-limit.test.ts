import { createKeySigner, type RequestSigner } from '@vp-authorizer/core';
import { MAX_MDOC_DOCUMENTS } from '@vp-authorizer/core/formats';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_NS, startE2eEnvironment } from './e2e-harness.js';

// Each org-iso-mdoc DocRequest is signed (readerAuth) through the reader's RequestSigner, and a
// DeviceResponse may carry at most MAX_MDOC_DOCUMENTS documents: a create asking for more is
// refused before anything is signed.
const ORIGIN = 'https://rp.example';
let env: E2eEnvironment;
let signatures = 0;
beforeAll(async () => {
  const reader = await generateDevSigningKey({ readerAuth: true, commonName: 'reader' });
  const inner = createKeySigner({ privateKey: reader.signing.privateKey, certificateChain: reader.signing.certificateChain });
  const signer: RequestSigner = { alg: 'ES256', certificateChain: reader.signing.certificateChain, sign: async (data) => (signatures++, inner.sign(data)) };
  env = await startE2eEnvironment({ readerAuth: { identity: { signer } } });
  // The signer is probed once on first use; count only the DocRequests' signatures after that.
  expect((await env.rp.call('POST', '/openid4/vp/v1_0/authorizations', body(1))).status).toBe(201);
});
afterAll(async () => env.close());

const body = (count: number) => ({
  responseMode: 'dc_api',
  protocol: 'org-iso-mdoc',
  expectedOrigins: [ORIGIN],
  query: { type: 'DCQL', dcql: { credentials: Array.from({ length: count }, (_, i) => ({ id: `q${i}`, format: 'mso_mdoc', meta: { doctype_value: MDL_DOCTYPE }, claims: [{ path: [MDL_NS, 'family_name'] }] })) } },
});

describe('org-iso-mdoc requests ask for at most MAX_MDOC_DOCUMENTS credentials', () => {
  it(`${MAX_MDOC_DOCUMENTS + 1} credential queries → 400 request.invalid_body pointing at /query/dcql/credentials, nothing signed`, async () => {
    expect(MAX_MDOC_DOCUMENTS).toBe(10);
    const before = signatures;
    const { status, body: problem } = await env.rp.call('POST', '/openid4/vp/v1_0/authorizations', body(MAX_MDOC_DOCUMENTS + 1));
    expect(status).toBe(400);
    expect(problem).toMatchObject({ type: 'request.invalid_body' });
    expect(JSON.stringify(problem)).toContain('/query/dcql/credentials');
    expect(signatures - before).toBe(0);
  });

  it(`${MAX_MDOC_DOCUMENTS} credential queries → 201, one readerAuth signature per DocRequest`, async () => {
    const before = signatures;
    const { status } = await env.rp.call('POST', '/openid4/vp/v1_0/authorizations', body(MAX_MDOC_DOCUMENTS));
    expect(status).toBe(201);
    expect(signatures - before).toBe(MAX_MDOC_DOCUMENTS);
  });
});
