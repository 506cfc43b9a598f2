// Flows run the way a relying party written for the hosted authorizer API runs them: an
// openapi-fetch client typed by the generated document, pointed at a real server on 127.0.0.1,
// reading the answers as such a client does (`claims.given_name`, `error.vidosType`, …).
import { createTestIssuer, createTestWallet, type TestWallet } from '@vp-authorizer/testing';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '@vp-authorizer/client';
import { API_KEY, type E2eEnvironment, MDL_DOCTYPE, MDL_NS, PID_CLAIMS, PID_VCT, pidQuery, responseCodeOf, startE2eEnvironment } from '../e2e/e2e-harness.js';

type CreateBody = NonNullable<paths['/openid4/vp/v1_0/authorizations']['post']['requestBody']>['content']['application/json'];
const AAMVA_NS = 'org.iso.18013.5.1.aamva';

const hostedClient = (env: E2eEnvironment) => createClient<paths>({ baseUrl: env.baseUrl, headers: { Authorization: `Bearer ${API_KEY}` } });
type HostedClient = ReturnType<typeof hostedClient>;

/**
 * create → the wallet answers → the status, as a hosted-API client learns it: by resolving the
 * response code when the wallet was sent back, else by polling (a rejected presentation is
 * answered to the wallet with an error, so no code reaches the RP).
 */
async function runFlow(env: E2eEnvironment, client: HostedClient, wallet: TestWallet, body: CreateBody, respond: Parameters<TestWallet['respond']>[1] = {}) {
  const created = await client.POST('/openid4/vp/v1_0/authorizations', { body });
  if (!created.data || !('authorizeUrl' in created.data)) throw new Error(`create answered ${created.response.status}`);
  const authorizationId = created.data.authorizationId;
  const request = await wallet.receive(created.data.authorizeUrl, { verifierTrustAnchors: [env.verifierRootPem] });
  const answered = await wallet.respond(request, respond);
  if (answered.status === 200) {
    const resolved = await client.POST('/openid4/vp/v1_0/response-code/resolve', { body: { response_code: responseCodeOf(answered.body) } });
    expect(resolved.data?.authorization_id).toBe(authorizationId);
    return { authorizationId, request, answered, status: resolved.data!.status };
  }
  const polled = await client.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/status', { params: { path: { authorizationId } } });
  return { authorizationId, request, answered, status: polled.data!.status };
}

const decode = (entry: string) => JSON.parse(Buffer.from(entry, 'base64url').toString('utf8')) as Record<string, unknown>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

let env: E2eEnvironment;
let client: HostedClient;
beforeAll(async () => {
  env = await startE2eEnvironment();
  client = hostedClient(env);
});
afterAll(async () => env.close());

describe('a hosted-API client reads mdoc data elements directly under claims', () => {
  it('finds given_name, birth_date and driving_privileges at the top level; the namespaced view stays under namespaces', async () => {
    const wallet = await createTestWallet();
    const drivingPrivileges = [{ vehicle_category_code: 'B' }];
    await wallet.addMdoc(env.issuer, {
      docType: MDL_DOCTYPE,
      namespaces: {
        // A foreign namespace listed first carries a clashing identifier: the doctype's namespace wins.
        [AAMVA_NS]: { given_name: 'Other', DHS_compliance: 'F' },
        [MDL_NS]: { given_name: 'Erika', family_name: 'Mustermann', birth_date: '1984-01-26', driving_privileges: drivingPrivileges },
      },
    });
    const paths = [
      [MDL_NS, 'given_name'],
      [MDL_NS, 'birth_date'],
      [MDL_NS, 'driving_privileges'],
      [AAMVA_NS, 'given_name'],
      [AAMVA_NS, 'DHS_compliance'],
    ];
    const flow = await runFlow(env, client, wallet, {
      responseMode: 'direct_post.jwt',
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL_DOCTYPE }, claims: paths.map((path) => ({ path })) }] } },
    });
    expect(flow.status).toBe('authorized');

    const { data } = await client.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/credentials', { params: { path: { authorizationId: flow.authorizationId } } });
    const [credential] = data!.credentials;
    expect(credential!.credentialType).toBe(MDL_DOCTYPE);
    expect(credential!.claims.given_name).toBe('Erika');
    expect(credential!.claims.birth_date).toBe('1984-01-26');
    expect(credential!.claims.driving_privileges).toEqual(drivingPrivileges);
    expect(credential!.claims.DHS_compliance).toBe('F');
    expect(credential!.claims.family_name).toBeUndefined(); // not asked for, not disclosed
    expect(credential!.namespaces?.[AAMVA_NS]).toEqual({ given_name: 'Other', DHS_compliance: 'F' });
    expect(credential!.namespaces?.[MDL_NS]?.given_name).toBe('Erika');
  });
});

describe('a hosted-API client shows the root cause of a rejection first, by vidosType', () => {
  it('an untrusted issuer: trusted-issuer-untrusted comes before the credential-query-evaluation it causes', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(await createTestIssuer(), { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runFlow(env, client, wallet, { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    expect(flow.status).toBe('rejected');
    // The summary the wallet is given names the root cause, not the query it made unsatisfied.
    expect(flow.answered.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('trusted_issuer.untrusted') });

    const { data } = await client.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/policy-response', { params: { path: { authorizationId: flow.authorizationId } } });
    const failures = data!.data.filter((result) => result.error !== undefined);
    // parseVidosError of the hosted API's demos: `vidosType ?? policy`, first failure shown.
    expect(failures[0]!.error!.vidosType).toBe('trusted-issuer-untrusted');
    expect(failures.every((result) => typeof result.error!.vidosType === 'string')).toBe(true);
    const slugs = failures.map((result) => result.error!.vidosType);
    const derived = failures.findIndex((result) => result.error!.code === 'credential_query.unsatisfied');
    expect(derived).toBeGreaterThan(0);
    expect(slugs[derived]).toBe('credential-query-evaluation');
    expect(failures.slice(0, derived).every((result) => result.error!.code !== 'credential_query.unsatisfied')).toBe(true);
    // Failures before passes: a client reading from the top sees why.
    expect(data!.data.slice(0, failures.length)).toEqual(failures);
  });
});

describe('a hosted-API client sends transaction_data without credential_ids', () => {
  const payment = encode({ type: 'payment_confirmation', amount: '42.00', currency: 'EUR', payee: 'Demo Bank' });
  const body = (): CreateBody => ({
    responseMode: 'direct_post',
    query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } },
    // As the hosted API's bank demo sends it: inside responseTypeParameters.
    responseTypeParameters: { transaction_data: [payment] },
  });

  it('is accepted, bound to every credential query, and authorized when the KB-JWT carries the hash', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runFlow(env, client, wallet, body());
    expect(flow.request.transactionData?.map(decode)).toEqual([{ ...decode(payment), credential_ids: ['pid'] }]);
    expect(flow.status).toBe('authorized');
    const { data } = await client.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/credentials', { params: { path: { authorizationId: flow.authorizationId } } });
    expect(data!.credentials[0]!.claims.given_name).toBe('Erika');
  });

  it('is rejected when the wallet leaves the hashes out of its KB-JWT', async () => {
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runFlow(env, client, wallet, body(), { presentations: { pid: [{ credential: pid, tamper: { transactionDataHashes: [] } }] } });
    expect(flow.status).toBe('rejected');
    const { data } = await client.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/policy-response', { params: { path: { authorizationId: flow.authorizationId } } });
    expect(data!.data[0]!.error).toMatchObject({ code: 'holder_binding.transaction_data_mismatch', vidosType: 'proof-verification-failed' });
  });

  it('is refused at creation by an instance with openId4vp.transactionData.requireCredentialIds', async () => {
    const strict = await startE2eEnvironment({ openId4vp: { transactionData: { requireCredentialIds: true } } });
    try {
      const { error, response } = await hostedClient(strict).POST('/openid4/vp/v1_0/authorizations', { body: body() });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ type: 'request.invalid_body', errors: [{ pointer: '/responseTypeParameters/transaction_data/0' }] });
      expect(error!.message).toContain('credential_ids');
    } finally {
      await strict.close();
    }
  });
});
