import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { ParsedPresentation, PolicyResult } from '@vp-authorizer/core';
import { sharedItemDeviceResponse } from '../src/formats/shared/hostile-cbor.test-support.js';
import { fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>> | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const SKIP_VALIDATION = { config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { skip: true } } } };
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

/** Create an authorization, fetch its request object as a wallet, post `fields`; the outcome as the RP sees it. */
async function respond(query: Record<string, unknown>, fields: Record<string, string>) {
  const created = await env!.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post', query }) });
  expect(created.status).toBe(201);
  const { authorizationId, authorizeUrl } = (await created.json()) as Record<string, string>;
  const claims = decodeJwt((await fetchRequestObject(authorizeUrl!)).jwt) as Record<string, string>;
  const posted = await fetch(claims.response_uri!, form({ ...fields, state: claims.state! }));
  expect(posted.status).toBeLessThan(500);
  const status = ((await (await env!.api(`/openid4/vp/v1_0/authorizations/${authorizationId}/status`)).json()) as { status: string }).status;
  const results = ((await (await env!.api(`/openid4/vp/v1_0/authorizations/${authorizationId}/policy-response`)).json()) as { data: PolicyResult[] }).data;
  return { status, codes: results.filter((r) => r.error).map((r) => r.error!.code) };
}

const pe = (presentationDefinition: Record<string, unknown>) => ({ type: 'DIF.PresentationExchange', presentationDefinition });
const sdJwtDescriptor = (id: string) => ({ id, format: { 'dc+sd-jwt': {} } });
const submission = (descriptor_map: unknown[]) => JSON.stringify({ id: 's', definition_id: 'pd', descriptor_map });

describe('Presentation Exchange amplification and coverage', () => {
  it('a submission that answers only some input descriptors does not authorize with validation skipped', async () => {
    env = await startAuthorizer({ instance: SKIP_VALIDATION });
    const query = pe({ id: 'pd', input_descriptors: [sdJwtDescriptor('pid'), sdJwtDescriptor('degree')] });
    const partial = await respond(query, { vp_token: await makeSdJwt(), presentation_submission: submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$' }]) });
    expect(partial).toEqual({ status: 'rejected', codes: ['format.query_not_covered'] });

    const vpToken = JSON.stringify([await makeSdJwt(), await makeSdJwt()]);
    const both = submission([
      { id: 'pid', format: 'dc+sd-jwt', path: '$[0]' },
      { id: 'degree', format: 'dc+sd-jwt', path: '$[1]' },
    ]);
    expect((await respond(query, { vp_token: vpToken, presentation_submission: both })).status).toBe('authorized');
  });

  it('refuses more descriptor_map entries than the definition allows, before any presentation reaches the verifier', async () => {
    const verified: ParsedPresentation[][] = [];
    env = await startAuthorizer({ instance: { verifier: { verify: async (input) => (verified.push(input.presentations), input.presentations.map((p) => ({ path: p.path, policy: 'proof', service: 'verifier', data: {} }))), verifyIdToken: async () => [] } } });
    const query = pe({ id: 'pd', input_descriptors: [sdJwtDescriptor('pid')] });
    const entries = Array.from({ length: 60 }, () => ({ id: 'pid', format: 'dc+sd-jwt', path: '$' }));
    expect(await respond(query, { vp_token: await makeSdJwt(), presentation_submission: submission(entries) })).toEqual({ status: 'rejected', codes: ['format.submission_invalid'] });
    expect(verified).toEqual([]);
  });

  it('hands the verifier one presentation per input descriptor however many entries share a vp_token element', async () => {
    const verified: ParsedPresentation[][] = [];
    env = await startAuthorizer({ instance: { verifier: { verify: async (input) => (verified.push(input.presentations), input.presentations.map((p) => ({ path: p.path, policy: 'proof', service: 'verifier', data: {} }))), verifyIdToken: async () => [] } } });
    const query = pe({ id: 'pd', input_descriptors: [sdJwtDescriptor('pid'), sdJwtDescriptor('degree')] });
    const map = submission([
      { id: 'pid', format: 'dc+sd-jwt', path: '$' },
      { id: 'degree', format: 'dc+sd-jwt', path: '$' },
    ]);
    expect((await respond(query, { vp_token: await makeSdJwt(), presentation_submission: map })).status).toBe('authorized');
    expect(verified.map((ps) => ps.map((p) => p.path))).toEqual([[['pid', 0], ['degree', 0]]]);
  });
});

describe('mdoc CBOR amplification', () => {
  const mdocQuery = { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } }] } };

  it('rejects a DeviceResponse that references one IssuerSignedItem thousands of times (shared-reference amplification)', async () => {
    env = await startAuthorizer({ instance: SKIP_VALIDATION });
    const hostile = sharedItemDeviceResponse({ itemBytes: 20_000, references: 3_000 });
    expect(await respond(mdocQuery, { vp_token: JSON.stringify({ mdl: [hostile] }) })).toEqual({ status: 'rejected', codes: ['format.mdoc_malformed'] });
  });
});
