import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyResult, ValidatorClient, VerifierClient } from '@vp-authorizer/core';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

/** Run one redirect flow and return the final status and policy results. */
async function runFlow(payloadExtra: Record<string, unknown> = {}, createExtra: Record<string, unknown> = {}) {
  const { json } = await createDcqlAuthorization(env.api, createExtra);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt);
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state, ...payloadExtra });
  const post = await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
  const id = json.authorizationId!;
  const status = ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;
  // A presentation rejected by a policy is refused to the wallet (400); every other outcome is 200.
  expect(post.status).toBe(status === 'rejected' ? 400 : 200);
  const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`)).json()) as { data: PolicyResult[] };
  return { id, status, results: policy.data };
}

const ok = (policy: string, service: 'validator' | 'verifier'): PolicyResult[] => [{ path: ['pid', 0], policy, service, data: {} }];

describe('validate and verify', () => {
  it('run in parallel: both calls are in flight at the same time', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const track = async <T>(value: T): Promise<T> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (inFlight === 2) release();
      // Each call waits until the other has started: this only finishes if they overlap.
      await bothStarted;
      inFlight--;
      return value;
    };
    const validator: ValidatorClient = { validate: () => track(ok('credentialQuery', 'validator')) };
    const verifier: VerifierClient = { verify: () => track(ok('proof', 'verifier')), verifyIdToken: async () => [] };
    env = await startAuthorizer({ instance: { validator, verifier } });
    const { status } = await runFlow();
    expect(maxInFlight).toBe(2);
    expect(status).toBe('authorized');
  });

  it('a client that never answers times out: status error, the signal is aborted, nothing stays pending', async () => {
    let aborted = false;
    const validator: ValidatorClient = {
      validate: (_input, { signal }) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    };
    env = await startAuthorizer({ instance: { validator, config: { policies: { validate: { timeoutMs: 50 } } } } });
    const { status, results } = await runFlow();
    expect(status).toBe('error');
    expect(aborted).toBe(true);
    expect(results.find((r) => r.error)?.error?.code).toBe('validate.unexpected_error');
  });

  it('a hung call is still aborted at its deadline when the other call failed outside the client (instrumentation)', async () => {
    let verifierSignal: AbortSignal | undefined;
    const verifier: VerifierClient = {
      verify: (_input, { signal }) => {
        verifierSignal = signal;
        return new Promise(() => {});
      },
      verifyIdToken: async () => [],
    };
    const span = { setAttributes() {}, route() {}, answered() {} };
    env = await startAuthorizer({
      instrumentation: {
        request: (_request, run) => run(span),
        // The validate step's telemetry fails before the validator is even called.
        step: (step, _attributes, run) => (step === 'validate' ? Promise.reject(new Error('telemetry down')) : run(span)),
        decision() {},
      },
      instance: { verifier, config: { policies: { validate: { timeoutMs: 50 }, verify: { timeoutMs: 50 } } } },
    });
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    // A failing instrumentation is the host's fault, answered as such; what matters here is that
    // the answer came only after the verifier's deadline, which told the verifier to stop.
    await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    expect(verifierSignal?.aborted).toBe(true);
    const status = ((await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()) as { status: string }).status;
    expect(status).toBe('error');
  });

  it('a client that throws gives error; one that answers garbage gives error', async () => {
    env = await startAuthorizer({ instance: { verifier: { verify: async () => Promise.reject(new Error('boom: secret-ish detail')), verifyIdToken: async () => [] } } });
    const thrown = await runFlow();
    expect(thrown.status).toBe('error');
    expect(JSON.stringify(thrown.results)).not.toContain('secret-ish');
    await env.close();

    env = await startAuthorizer({ instance: { validator: { validate: async () => ({ not: 'a list' }) as unknown as PolicyResult[] } } });
    expect((await runFlow()).status).toBe('error');
    await env.close();

    env = await startAuthorizer({ instance: { validator: { validate: async () => [{ path: [], policy: 'x', service: 'validator' }] as PolicyResult[] } } });
    expect((await runFlow()).status).toBe('error');
  });

  it('a result with an error gives rejected, with the result kept in the policy response', async () => {
    const error = { type: 'https://example/e', code: 'credential_query.unsatisfied', title: 'no' };
    env = await startAuthorizer({ instance: { validator: { validate: async () => [{ path: [], policy: 'credentialQuery', service: 'validator', error }] } } });
    const { status, results, id } = await runFlow();
    expect(status).toBe('rejected');
    expect(results).toContainEqual({ path: [], policy: 'credentialQuery', service: 'validator', error });
    const creds = (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/credentials`)).json()) as { credentials: unknown[] };
    expect(creds.credentials).toEqual([]);
  });

  it('skip: true is honoured (the skipped client is never called)', async () => {
    let called = false;
    env = await startAuthorizer({
      instance: {
        validator: { validate: async () => ((called = true), []) },
        config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { skip: true } } },
      },
    });
    const { status, results } = await runFlow();
    expect(called).toBe(false);
    expect(status).toBe('authorized');
    expect(results.some((r) => r.service === 'validator')).toBe(false);
  });

  it('ID-token flows: the ID token goes to verifyIdToken only, never to the validator', async () => {
    const seen: string[] = [];
    const validator: ValidatorClient = { validate: async (input) => (seen.push(`validate:${input.presentations.length}`), ok('credentialQuery', 'validator')) };
    const verifier: VerifierClient = {
      verify: async () => (seen.push('verify'), ok('proof', 'verifier')),
      verifyIdToken: async (input) => (seen.push(`verifyIdToken:${input.audience.startsWith('x509_hash:')}`), [{ path: ['id_token'], policy: 'proof', service: 'verifier', data: {} }]),
    };
    env = await startAuthorizer({ instance: { validator, verifier } });
    const idToken = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from('{"iss":"a","sub":"a"}').toString('base64url')}.c2ln`;
    const { status } = await runFlow({ id_token: idToken }, { responseType: 'vp_token id_token' });
    expect(status).toBe('authorized');
    expect(seen.sort()).toEqual(['validate:1', 'verify', 'verifyIdToken:true']);
  });

  it('a format failure stops the flow: rejected, no client called, the policy result says why', async () => {
    let called = false;
    env = await startAuthorizer({ instance: { validator: { validate: async () => ((called = true), []) } } });
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { unknown_query: ['x~'] }, state: claims.state });
    await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/policy-response`)).json()) as { data: PolicyResult[] };
    expect(called).toBe(false);
    expect(((await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()) as { status: string }).status).toBe('rejected');
    expect(policy.data[0]).toMatchObject({ policy: 'format', service: 'authorizer', error: { code: expect.stringMatching(/^format\./) } });
  });
});
