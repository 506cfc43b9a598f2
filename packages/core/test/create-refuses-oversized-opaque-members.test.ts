// Members of a create body the authorizer stores without interpreting them (DCQL `meta`, the query's
// unknown members, verifier_info, walletMetadata, transaction_data) are kept in the store for the
// authorization's whole retention. Each has a size cap, and so has the body as a whole, so that
// one create cannot park up to the body limit (1 MiB by default, up to 50 MiB) in the store.
import { afterEach, describe, expect, it } from 'vitest';
import { CREATE_BODY_SIZE_LIMITS } from '../src/request/create-body-size-limits.js';
import { DCQL_SD_JWT, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const create = (body: Record<string, unknown>) =>
  env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const dcqlBody = (extra: Record<string, unknown> = {}, dcql: Record<string, unknown> = DCQL_SD_JWT) => ({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql }, ...extra });
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JSON object of about `bytes` bytes. */
const padded = (bytes: number) => ({ pad: 'x'.repeat(bytes) });

async function expectRefused(body: Record<string, unknown>, pointer: string) {
  const res = await create(body);
  expect(res.status).toBe(400);
  const problem = (await res.json()) as { type: string; message: string; errors: { pointer: string; code?: string; detail: string }[] };
  expect(problem.type).toBe('request.invalid_body');
  expect(problem.errors).toEqual([expect.objectContaining({ pointer, code: 'request.member_too_large' })]);
  // The detail names the cap, never the member's content.
  expect(problem.errors[0]!.detail).toMatch(/at most \d+ bytes/);
  expect(problem.message).not.toContain('xxxx');
}

describe('create refuses opaque members over their size cap, with a pointer', () => {
  it('a DCQL meta over its cap; one just under it is accepted', async () => {
    env = await startAuthorizer();
    const cap = CREATE_BODY_SIZE_LIMITS.meta;
    const credential = DCQL_SD_JWT.credentials[0]!;
    await expectRefused(dcqlBody({}, { credentials: [{ ...credential, meta: { vct_values: ['urn:eudi:pid:1'], ...padded(cap) } }] }), '/query/dcql/credentials/0/meta');
    const under = await create(dcqlBody({}, { credentials: [{ ...credential, meta: { vct_values: ['urn:eudi:pid:1'], ...padded(cap - 100) } }] }));
    expect(under.status).toBe(201);
  });

  it("the query as a whole, unknown members included, and a presentation definition's", async () => {
    env = await startAuthorizer();
    await expectRefused(dcqlBody({}, { ...DCQL_SD_JWT, extension: padded(CREATE_BODY_SIZE_LIMITS.query) }), '/query');
    const definition = { id: 'pd', input_descriptors: [{ id: 'pid', constraints: { fields: [{ path: ['$.given_name'] }] } }], purpose: 'x'.repeat(CREATE_BODY_SIZE_LIMITS.query) };
    await expectRefused({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: definition } }, '/query');
  });

  it('walletMetadata, verifier_info and transaction_data (at either place)', async () => {
    env = await startAuthorizer();
    await expectRefused(dcqlBody({ walletMetadata: padded(CREATE_BODY_SIZE_LIMITS.walletMetadata) }), '/walletMetadata');
    await expectRefused(dcqlBody({ responseTypeParameters: { verifier_info: [{ format: 'jwt', data: 'x'.repeat(CREATE_BODY_SIZE_LIMITS.verifierInfo) }] } }), '/responseTypeParameters/verifier_info');
    const entry = base64url({ type: 'payment', credential_ids: ['pid'], ...padded(CREATE_BODY_SIZE_LIMITS.transactionData) });
    await expectRefused(dcqlBody({ transaction_data: [entry] }), '/transaction_data');
    await expectRefused(dcqlBody({ responseTypeParameters: { transaction_data: [entry] } }), '/responseTypeParameters/transaction_data');
  });

  it('a body over the total cap although no member is over its own', async () => {
    env = await startAuthorizer();
    const origins = Array.from({ length: Math.ceil(CREATE_BODY_SIZE_LIMITS.body / 20) }, (_, i) => `https://rp${i}.example`);
    await expectRefused({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: DCQL_SD_JWT }, expectedOrigins: origins }, '');
  });
});
