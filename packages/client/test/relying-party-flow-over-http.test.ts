// The whole relying-party side of a presentation through the client, against a real authorizer on
// 127.0.0.1 and the test wallet: create, follow the status (polling and the event stream), resolve
// the response code bound to the session's authorization, read the credentials and the policy
// results, erase the disclosed data.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationStatus, isAuthorizerApiError } from '../src/index.js';
import { type VerifyingAuthorizer, PID_VCT, pidRequest, startVerifyingAuthorizer } from './__fixtures__/verifying-authorizer.js';

let env: VerifyingAuthorizer;
beforeAll(async () => void (env = await startVerifyingAuthorizer()));
afterAll(() => env?.server.close());

const codeOf = (body: unknown) => new URL((body as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!;

describe('the client through a presentation', () => {
  it('creates, follows, resolves with authorization_id and reads what the wallet disclosed', async () => {
    const created = await env.client.createAuthorization(pidRequest());
    if (!('authorizeUrl' in created)) throw new Error('expected the redirect shape');
    expect(created.authorizeUrl).toMatch(/^openid4vp:/);
    expect(await env.client.getAuthorizationStatus(created.authorizationId)).toEqual({ status: 'created' });

    // The stream is read while the wallet answers.
    const seen: AuthorizationStatus[] = [];
    const following = (async () => {
      for await (const status of env.client.streamAuthorizationEvents(created.authorizationId)) seen.push(status);
    })();

    const wallet = await env.wallet();
    const answer = await wallet.respond(await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [env.verifierRootPem] }));
    expect(answer.status).toBe(200);
    await following; // ends by itself after the terminal status
    expect(seen[0]?.status).toBe('created');
    expect(seen.at(-1)).toEqual({ status: 'authorized' });

    const idempotencyKey = randomUUID();
    const body = { response_code: codeOf(answer.body), authorization_id: created.authorizationId };
    const resolved = await env.client.resolveResponseCode(body, { idempotencyKey });
    expect(resolved).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    // A retry with the same key (its first answer lost) gets the same answer; without it, the code is used up.
    expect(await env.client.resolveResponseCode(body, { idempotencyKey })).toEqual(resolved);
    await expect(env.client.resolveResponseCode(body)).rejects.toMatchObject({ type: 'response_code.not_found', status: 404 });

    const { credentials } = await env.client.getCredentials(created.authorizationId);
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ format: 'dc+sd-jwt', credentialType: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    expect(credentials[0]!.claims.birthdate).toBeUndefined();
    const policies = await env.client.getPolicyResponse(created.authorizationId);
    expect(policies.authorizationId).toBe(created.authorizationId);
    expect(policies.data.length).toBeGreaterThan(0);
    expect(policies.data.filter((result) => result.error)).toEqual([]);

    await env.client.erasePersonalData(created.authorizationId);
    const erased = await env.client.getCredentials(created.authorizationId).catch((error: unknown) => error);
    expect(isAuthorizerApiError(erased, 'authorization.data_erased')).toBe(true);
    expect(await env.client.getAuthorizationStatus(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('reads the trust anchor wallets need and the readiness of the authorizer', async () => {
    const anchor = await env.client.getTrustAnchorCertificate();
    expect(anchor.certificate.replace(/\s/g, '')).toBe(env.verifierRootPem.replace(/\s/g, ''));
    await expect(env.client.getReadiness()).resolves.toBeUndefined();
  });

  it('keeps the raw openapi-fetch client for any path of the document, with the same base URL and key', async () => {
    const { data, response } = await env.client.raw.GET('/openid4/vp/v1_0/jwks');
    expect(response.status).toBe(200);
    expect(data?.keys.length).toBeGreaterThan(0);
  });
});
