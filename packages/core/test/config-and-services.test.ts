import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, httpValidatorClient, passThroughValidator, passThroughVerifier, type VerifyInput } from '@vp-authorizer/core';
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
    expect(build({})).toThrow(/has no validator: pass `validator: localValidator\(\)` from @vp-authorizer\/local/); // no validator given and not skipped
    expect(() => createAuthorizer({ publicBaseUrl: 'not a url', instances: [] } as never)).toThrow(/publicBaseUrl[\s\S]*instances/);
    try {
      build({ apiKeys: ['short'] })();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).not.toContain('short');
    }
    // Keys a Bearer header could never carry, and keys past the length cap, are refused without being echoed.
    for (const [key, reason] of [['with a space-1', /printable ASCII/], ['caf\u00e9-key-0001', /printable ASCII/], ['\ud800-lone-surrogate', /printable ASCII/], ['k'.repeat(513), /at most 512/]] as const) {
      try {
        build({ apiKeys: [key] })();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).message).toMatch(reason);
        expect((error as ConfigError).message).not.toContain(key);
      }
    }
    expect(() => build({ apiKeys: ['k'.repeat(512)], validator: passThroughValidator(), verifier: passThroughVerifier() })()).not.toThrow();
  });

  it('checks the options and every instance configuration in one pass, naming each problem by its path', async () => {
    const { signing } = await devSigning();
    const options = {
      publicBaseUrl: 'https://rp.example/?q=1',
      instances: [
        { id: 'a', apiKeys: ['k-123456789'], signing, config: { openId4vp: { expiresAfter: 5 } } },
        { id: 'b', apiKeys: ['k-987654321'], signing, config: { didMethods: { methods: { ebsi: { registry: { environment: 'prod' } } } } }, verifier: { verify: () => [] } },
      ],
      clock: Date.now,
    };
    const error = (() => {
      try {
        createAuthorizer(options as never);
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('config.invalid');
    expect(error.issues.map((i) => i.path).sort()).toEqual(['clock', 'instances.0.config.openId4vp.expiresAfter', 'instances.1.config.didMethods.methods.ebsi.registry.environment', 'instances.1.verifier', 'publicBaseUrl']);
    expect(error.message).toMatch(/^Invalid authorizer options:\n/);
    expect(error.message).toContain('  - instances.1.verifier: verifier must have verify(), verifyIdToken()');
    expect(error.message).toContain('  - clock: clock must have now()');
  });

  it('accepts a hosted-API configuration whose members have no meaning here (trustAnchor.type, serviceRole)', async () => {
    const { signing } = await devSigning();
    const authorizer = createAuthorizer({
      publicBaseUrl: 'https://rp.example',
      sweepIntervalMs: 0,
      clients: { verifiers: { eu: passThroughVerifier() } },
      instances: [
        {
          id: 'a',
          apiKeys: ['k-123456789'],
          signing,
          config: {
            policies: { validate: { skip: true }, verify: { verifier: { type: 'instance', resourceId: 'eu', serviceRole: { owner: 'managed', resourceId: 'verifier_all_actions' } } } },
            openId4vp: { trustAnchor: { type: 'vidos', anchor: 'account' } },
          } as never,
        },
      ],
    });
    const answer = await authorizer.fetch(new Request('https://rp.example/instances/oid4vp-trust-anchor', { headers: { authorization: 'Bearer k-123456789' } }));
    expect(((await answer.json()) as { anchorType: string }).anchorType).toBe('account');
    await authorizer.close();
  });

  it('passes registered clients and hooks through validation: the named verifier resolves and onEvent is called', async () => {
    const { signing } = await devSigning();
    const verifier = passThroughVerifier();
    const seen: string[] = [];
    const authorizer = createAuthorizer({
      publicBaseUrl: 'https://rp.example',
      instances: [{ id: 'a', apiKeys: ['k-123456789'], signing, config: { policies: { validate: { skip: true }, verify: { verifier: { type: 'instance', resourceId: 'counting' } } } } }],
      clients: { verifiers: { counting: verifier } },
      onEvent: (event) => void seen.push(event.type),
      sweepIntervalMs: 0,
    });
    const created = await authorizer.fetch(
      new Request('https://rp.example/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { authorization: 'Bearer k-123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } }),
      }),
    );
    expect(created.status).toBe(201);
    expect(seen).toEqual(['authorization.created']);
    await authorizer.close();
  });
});

describe('the DID-method configuration reaches the verifier', () => {
  it('verify receives didMethods with defaults filled in and the response settings as configured', async () => {
    const seen: VerifyInput[] = [];
    const verifier = { ...passThroughVerifier(), verify: async (input: VerifyInput) => (seen.push(input), passThroughVerifier().verify(input, { signal: new AbortController().signal })) };
    env = await startAuthorizer({
      instance: { verifier, config: { didMethods: { methods: { ebsi: { enabled: true, registry: { environment: 'pilot.v5' } } }, response: { contentType: 'application/did+ld+json' } } } },
    });
    const { status } = await runFlow();
    expect(status).toBe('authorized');
    expect(seen).toHaveLength(1);
    const { didMethods } = seen[0]!;
    expect(didMethods.methods.ebsi).toEqual({ enabled: true, registry: { environment: 'pilot.v5' } });
    expect(didMethods.methods.key).toEqual({ enabled: true });
    expect(didMethods.methods.ethr).toEqual({ enabled: false });
    expect(didMethods.response).toEqual({ contentType: 'application/did+ld+json', preferredPublicKeyEncoding: 'publicKeyJwk' });
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
    expect(failed.error.code).toBe('validate.failed');
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
    expect(failed.error.code).toBe('validate.unexpected_error');
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
