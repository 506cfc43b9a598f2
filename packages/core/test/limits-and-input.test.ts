import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/http/routes.js';
import { DCQL_SD_JWT, createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('HTTP limits', () => {
  it('413 over the body limit, 415 for a wrong content type, 404 JSON for unknown routes, 405 for wrong methods', async () => {
    env = await startAuthorizer({ bodyLimitBytes: 4096 });
    const big = await env.api('/openid4/vp/v1_0/authorizations', json({ pad: 'x'.repeat(10_000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ type: 'request.body_too_large' });

    const text = await env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);

    const unknown = await env.api('/nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'request.route_not_found' });

    const method = await env.api('/openid4/vp/v1_0/authorizations');
    expect(method.status).toBe(405);

    const malformed = await env.api('/openid4/vp/v1_0/authorizations', json('{"query":'));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: 'request.invalid_json' });
  });

  it('health is 204 without a key', async () => {
    env = await startAuthorizer();
    const res = await fetch(`${env.base}/health`);
    expect(res.status).toBe(204);
  });

  it('no client input produces a 5xx: random bodies, content types and ids on every route', async () => {
    env = await startAuthorizer();
    const { json: created } = await createDcqlAuthorization(env.api);
    const ids = [created.authorizationId!, 'x', '%ZZ', 'a'.repeat(300), '../../etc'];
    const bodies: [string, string][] = [
      ['application/json', '{}'],
      ['application/json', '[]'],
      ['application/json', 'null'],
      ['application/json', '{"query":{"type":"DCQL","dcql":{"credentials":[{}]}},"responseMode":"direct_post.jwt"}'],
      ['application/json', JSON.stringify({ origin: 5, digitalCredentialGetResponse: 'x' })],
      ['application/json', JSON.stringify({ origin: 'https://a', digitalCredentialGetResponse: { response: 'x.y.z' } })],
      ['application/json', JSON.stringify({ response_code: {} })],
      ['application/x-www-form-urlencoded', 'response=abc&state=1'],
      ['application/x-www-form-urlencoded', 'vp_token=%7B%22pid%22%3A5%7D&state=1'],
      ['application/x-www-form-urlencoded', 'a=1&a=2'],
      ['application/x-www-form-urlencoded', 'wallet_metadata=%7Bbad&wallet_nonce=1'],
      ['application/x-www-form-urlencoded', `wallet_metadata=${encodeURIComponent('{"vp_formats_supported":5}')}`],
      ['application/octet-stream', randomBytes(64).toString('latin1')],
    ];
    const statuses: number[] = [];
    for (const route of ROUTES) {
      for (const id of ids) {
        const path = route.pattern.source.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\./g, '.').replace('([^/]+)', encodeURIComponent(id) === id ? id : id);
        for (const [type, body] of route.method === 'POST' ? bodies : ([['', '']] as [string, string][])) {
          const res = await env.api(path, { method: route.method, ...(route.method === 'POST' ? { headers: { 'content-type': type }, body } : {}) });
          statuses.push(res.status);
          expect(res.status, `${route.method} ${path} ${type}`).toBeLessThan(500);
          if (res.status !== 204) expect(res.headers.get('content-type')).toMatch(/json|jwt/);
        }
      }
    }
    expect(statuses.length).toBeGreaterThan(200);
  });
});

describe('create', () => {
  const create = (body: unknown) => env.api('/openid4/vp/v1_0/authorizations', json(body));

  it('defaults: generated nonce, 5 minute expiry, openid4vp: endpoint, authorizeUrl by reference with request_uri_method=post', async () => {
    const now = Date.now();
    env = await startAuthorizer({ clock: { now: () => now } });
    const res = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } });
    const body = (await res.json()) as Record<string, string>;
    expect(res.status).toBe(201);
    expect(Buffer.from(body.nonce!, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(Date.parse(body.expiresAt!)).toBe(now + 300_000);
    expect(body.authorizationEndpoint).toBe('openid4vp:');
    const url = new URL(body.authorizeUrl!.replace('openid4vp://', 'https://wallet.invalid/'));
    expect(url.searchParams.get('client_id')).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('request_uri')).toBe(`${env.base}/openid4/vp/v1_0/authorizations/${body.authorizationId}/jwt`);
    expect(url.searchParams.get('request_uri_method')).toBe('post');
  });

  it('accepts a given nonce and Presentation Exchange queries', async () => {
    env = await startAuthorizer();
    const res = await create({
      responseMode: 'direct_post',
      nonce: 'my-nonce-0123456789',
      query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'd1', format: { jwt_vp_json: { alg: ['ES256'] } } }] } },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { nonce: string }).nonce).toBe('my-nonce-0123456789');
  });

  it('invalid bodies: 400 with a stable type and JSON-pointer errors', async () => {
    env = await startAuthorizer();
    const res = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'bad id!', format: 'dc+sd-jwt' }] } } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; errors: { pointer: string }[] };
    expect(body.type).toBe('request.invalid_body');
    expect(body.errors.map((e) => e.pointer)).toContain('/query/dcql/credentials/0/id');
  });

  it('a Presentation Exchange filter pattern a linear-time engine cannot run: 400 request.unsupported_pattern naming it', async () => {
    env = await startAuthorizer();
    const fields = [{ path: ['$.given_name'], filter: { type: 'string', pattern: '^(\\w+\\s?)*$' } }, { path: ['$.family_name'], filter: { type: 'string', pattern: '^(?!x)(\\w)\\1$' } }];
    const res = await create({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'd1', constraints: { fields } }] } } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; errors: { pointer: string; code: string; detail: string }[] };
    expect(body.type).toBe('request.unsupported_pattern');
    expect(body.errors).toEqual([{ pointer: '/query/presentationDefinition/input_descriptors/0/constraints/fields/1/filter/pattern', code: 'request.unsupported_pattern', detail: expect.stringMatching(/lookahead/) }]);
  });

  it('HAIP violations answer 400 with the rule code', async () => {
    env = await startAuthorizer();
    const cases: [Record<string, unknown>, string][] = [
      [{ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_SD_JWT } }, 'haip.response_mode'],
      [{ responseMode: 'direct_post.jwt', responseType: 'vp_token id_token', query: { type: 'DCQL', dcql: DCQL_SD_JWT } }, 'haip.response_type'],
      [{ responseMode: 'direct_post.jwt', query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'p', input_descriptors: [{ id: 'd' }] } } }, 'haip.query_type'],
    ];
    for (const [body, type] of cases) {
      const res = await create({ profile: 'haip', ...body });
      expect(res.status, type).toBe(400);
      expect(((await res.json()) as { type: string }).type).toBe(type);
    }
    expect((await create({ profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })).status).toBe(201);
  });
});
