import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, httpValidatorClient, passThroughVerifier } from '@vp-authorizer/core';
import { createDcqlAuthorization, devSigning, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>> | undefined;
let service: Server | undefined;
afterEach(async () => {
  await env?.close();
  await new Promise((r) => (service ? service.close(r) : r(undefined)));
  env = service = undefined;
});

async function validatorService(answer: (body: any) => { status: number; body: unknown }) {
  service = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const { status, body } = answer(JSON.parse(text));
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => service!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
}

async function runFlow() {
  const { json } = await createDcqlAuthorization(env!.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt);
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
  const status = ((await (await env!.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()) as { status: string }).status;
  const policy = (await (await env!.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/policy-response`)).json()) as { data: any[] };
  return { status, results: policy.data };
}

describe('configuration is validated once, at construction', () => {
  it('fails fast with a readable message listing each problem', async () => {
    const { signing } = await devSigning();
    const build = (overrides: Record<string, unknown>) => () =>
      createAuthorizer({ publicBaseUrl: 'https://rp.example', instances: [{ id: 'a', apiKeys: ['k-123456789'], signing, ...overrides }] } as never);
    expect(build({ config: { cors: { credentials: true } } })).toThrow(/credentials: true cannot be combined with origin "\*"/);
    expect(build({ config: { cors: { maxAge: 90000 } } })).toThrow(ConfigError);
    expect(build({ config: { policies: { validate: { validator: { type: 'instance', resourceId: 'nope' } } } } })).toThrow(/unknown service instance "nope"/);
    expect(build({})).toThrow(/managed/); // no validator given and not skipped
    expect(() => createAuthorizer({ publicBaseUrl: 'not a url', instances: [] } as never)).toThrow(/publicBaseUrl[\s\S]*instances/);
    try {
      build({ apiKeys: ['short'] })();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).not.toContain('short');
    }
  });
});

describe('service instance references resolve to registered clients', () => {
  it('a remote validator answering 422 gives rejected with its problem details kept under external', async () => {
    const url = await validatorService(() => ({ status: 422, body: { error: { type: 'https://validator.example/errors/credential-query-evaluation', title: 'no match' } } }));
    env = await startAuthorizer({
      clients: { validators: { remote: httpValidatorClient({ url, retries: 0 }) } },
      instance: { validator: undefined, verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { validator: { type: 'instance', resourceId: 'remote' } } } } },
    });
    const { status, results } = await runFlow();
    expect(status).toBe('rejected');
    const failed = results.find((r) => r.error)!;
    expect(failed.error.code).toBe('validate-failed');
    expect(JSON.stringify(failed.error.external)).toContain('credential-query-evaluation');
  });

  it('a remote validator answering 500 gives error, never a stuck pending', async () => {
    const url = await validatorService(() => ({ status: 500, body: { type: 'https://validator.example/errors/boom', title: 'validator crashed' } }));
    env = await startAuthorizer({
      clients: { validators: { remote: httpValidatorClient({ url, retries: 0 }) } },
      instance: { config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { validator: { type: 'instance', resourceId: 'remote' } } } } },
    });
    const { status, results } = await runFlow();
    expect(status).toBe('error');
    const failed = results.find((r) => r.error)!;
    expect(failed.error.code).toBe('unexpected-validate-error');
    // The service's own answer is kept for the RP to inspect, under external.
    expect(JSON.stringify(failed.error.external)).toContain('validator crashed');
  });

  it('a remote validator answering 200 receives the parsed presentations and can authorize', async () => {
    let seen: any;
    const url = await validatorService((body) => ((seen = body), { status: 200, body: { results: [{ path: ['pid', 0], policy: 'credentialQuery', service: 'validator', data: {} }] } }));
    env = await startAuthorizer({
      clients: { validators: { remote: httpValidatorClient({ url }) } },
      instance: { config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { validator: { type: 'instance', resourceId: 'remote' } } } } },
    });
    expect((await runFlow()).status).toBe('authorized');
    expect(seen.query.type).toBe('DCQL');
    expect(seen.presentations[0]).toMatchObject({ kind: 'sd-jwt', queryId: 'pid', path: ['pid', 0] });
  });
});
