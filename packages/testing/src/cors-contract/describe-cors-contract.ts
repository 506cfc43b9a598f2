import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, passThroughValidator, passThroughVerifier, type Authorizer, type CorsConfigInput } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { MAX_CORS_REQUEST_HEADERS_LENGTH } from '@vp-authorizer/core/http';
import { createFakeAuthorizer, type FakeAuthorizer } from '../http-contract/fake-authorizer.js';
import type { CorsTarget } from './cors-target.js';
import { header, headerList, rawRequest, type RawResponse } from './raw-request.js';

const PREFIX = '/authz';
const ALLOWED = 'https://rp.cors.example';
const EVIL = 'https://evil.cors.example';

interface Running {
  url(path: string): string;
  fake: FakeAuthorizer;
}

function running(target: CorsTarget, cors: CorsConfigInput): Running {
  let server: { origin: string; close(): Promise<void> } | undefined;
  const fake = createFakeAuthorizer();
  beforeAll(async () => {
    server = await target.start({ prefix: PREFIX, cors, authorizer: fake });
  });
  afterAll(async () => server?.close());
  return { url: (path) => `${server!.origin}${PREFIX}${path}`, fake };
}

const get = (url: string, headers: [string, string][] = []) => rawRequest(url, { headers });
const preflight = (url: string, origin: string, method = 'POST', requestHeaders?: string) =>
  rawRequest(url, {
    method: 'OPTIONS',
    headers: [['Origin', origin], ['Access-Control-Request-Method', method], ...(requestHeaders !== undefined ? ([['Access-Control-Request-Headers', requestHeaders]] as [string, string][]) : [])],
  });
/** A real authorizer whose instances carry these `cors` objects (undefined: the instance sets none). */
async function authorizerWithCors(...cors: (CorsConfigInput | undefined)[]): Promise<Authorizer> {
  const { signing } = await generateDevSigningKey();
  return createAuthorizer({
    publicBaseUrl: 'https://rp.cors.example/authz',
    sweepIntervalMs: 0,
    instances: cors.map((c, i) => ({ id: `instance-${i}`, apiKeys: [`cors-contract-key-${i}`], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), ...(c ? { config: { cors: c } } : {}) })),
  });
}

const expectNoCors = (res: RawResponse) => expect([...res.headers.keys()].filter((n) => n.startsWith('access-control-'))).toEqual([]);

/**
 * The CORS contract for a framework's `cors(config)` middleware in front of its authorizer
 * adapter, over a real server (127.0.0.1, random port). Includes one regression test per fault
 * other CORS layers have shipped.
 */
export function describeCorsContract(name: string, target: CorsTarget): void {
  describe(`CORS contract: ${name}`, () => {
    describe('construction', () => {
      it('accepts the defaults and a complete configuration', () => {
        expect(() => target.cors({})).not.toThrow();
        expect(() => target.cors({ enabled: true, origin: [ALLOWED], credentials: true, allowHeaders: ['Authorization'], exposeHeaders: ['X-Request-Id'], allowMethods: ['GET', 'HEAD'], maxAge: 0 })).not.toThrow();
      });
      it('rejects credentials with origin "*" with a clear message', () => {
        expect(() => target.cors({ enabled: true, credentials: true })).toThrow(/credentials: true cannot be combined with origin "\*"/);
        expect(() => target.cors({ enabled: true, credentials: true, origin: [ALLOWED, '*'] })).toThrow(/credentials/);
      });
      it.each([[{ maxAge: 86401 }], [{ maxAge: -1 }], [{ allowMethods: ['TRACE'] }], [{ origin: ['rp.example'] }], [{ enabled: 'yes' }]])('rejects %j', (config) => {
        expect(() => target.cors(config)).toThrow(/Invalid cors configuration/);
      });
    });

    describe('listed origins with credentials', () => {
      const server = running(target, { enabled: true, origin: [ALLOWED], credentials: true, allowHeaders: ['Authorization'], exposeHeaders: ['X-Request-Id'], maxAge: 600 });

      it('echoes an allowed origin on an actual request, with Vary: Origin, credentials and exposed headers', async () => {
        const res = await get(server.url('/echo'), [['Origin', ALLOWED]]);
        expect(res.status).toBe(200);
        expect(header(res, 'access-control-allow-origin')).toBe(ALLOWED);
        expect(header(res, 'access-control-allow-credentials')).toBe('true');
        expect(headerList(res, 'vary')).toContain('Origin');
        expect(headerList(res, 'access-control-expose-headers')).toEqual(expect.arrayContaining(['Cache-Control', 'Content-Type', 'Content-Length', 'X-Request-Id']));
      });

      it('refuses another origin without ACAO but still with Vary: Origin (and still serves the request)', async () => {
        const res = await get(server.url('/echo'), [['Origin', EVIL]]);
        expect(res.status).toBe(200);
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
        expect(header(res, 'access-control-allow-credentials')).toBeUndefined();
        expect(headerList(res, 'vary')).toContain('Origin');
      });

      it('sends Vary: Origin on a request without Origin', async () => {
        const res = await get(server.url('/echo'));
        expect(headerList(res, 'vary')).toContain('Origin');
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
      });

      it('answers an allowed preflight with 204, Content-Length: 0 and the allow headers, without calling the handler', async () => {
        const before = server.fake.requests.length;
        const res = await preflight(server.url('/openid4/vp/v1_0/authorizations'), ALLOWED, 'POST', 'authorization, Content-Type');
        expect(res.status).toBe(204);
        expect(res.headers.get('content-length')).toEqual(['0']);
        expect(res.body).toBe('');
        expect(header(res, 'access-control-allow-origin')).toBe(ALLOWED);
        expect(header(res, 'access-control-allow-credentials')).toBe('true');
        expect(headerList(res, 'access-control-allow-methods')).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
        expect(headerList(res, 'access-control-allow-headers').map((h) => h.toLowerCase())).toEqual(expect.arrayContaining(['authorization', 'content-type', 'accept']));
        expect(header(res, 'access-control-max-age')).toBe('600');
        expect(headerList(res, 'vary')).toContain('Origin');
        expect(server.fake.requests.length).toBe(before);
      });

      it('matches safelisted and configured request headers case-insensitively', async () => {
        const res = await preflight(server.url('/echo'), ALLOWED, 'POST', 'ACCEPT, accept-language, CONTENT-LANGUAGE, content-type, AUTHORIZATION');
        expect(header(res, 'access-control-allow-origin')).toBe(ALLOWED);
      });

      it('refuses a preflight from another origin: 204, no ACAO, Vary: Origin, handler not called', async () => {
        const before = server.fake.requests.length;
        const res = await preflight(server.url('/echo'), EVIL);
        expect(res.status).toBe(204);
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
        expect(headerList(res, 'vary')).toContain('Origin');
        expect(server.fake.requests.length).toBe(before);
      });

      it('refuses a preflight asking for a header that is not allowed', async () => {
        const res = await preflight(server.url('/echo'), ALLOWED, 'POST', 'x-not-allowed');
        expect(res.status).toBe(204);
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
      });

      it('keeps the CORS headers on error responses: core 404, unexpected 500 and a framework-native throw', async () => {
        for (const path of ['/no/such/route', '/boom', '/native-throw']) {
          const res = await get(server.url(path), [['Origin', ALLOWED]]);
          expect(res.status, path).toBeGreaterThanOrEqual(400);
          expect(header(res, 'access-control-allow-origin'), path).toBe(ALLOWED);
          expect(header(res, 'access-control-allow-credentials'), path).toBe('true');
          expect(headerList(res, 'vary'), path).toContain('Origin');
        }
      });

      // Regressions, one per fault other CORS layers have shipped.
      it('regression: Vary overwritten — the app Vary and Vary: Origin both survive', async () => {
        const res = await get(server.url('/cookies'), [['Origin', ALLOWED]]);
        expect(headerList(res, 'vary')).toEqual(expect.arrayContaining(['Origin', 'Accept-Encoding']));
        expect(res.headers.get('set-cookie')).toHaveLength(2);
      });

      it('regression: Vary copied from the request — a request Vary never reaches the response', async () => {
        const res = await get(server.url('/echo'), [['Origin', ALLOWED], ['Vary', 'X-Injected']]);
        expect(headerList(res, 'vary')).not.toContain('X-Injected');
        const refused = await preflight(server.url('/echo'), EVIL);
        expect(headerList(refused, 'vary')).toEqual(['Origin']);
      });

      it('regression: every OPTIONS treated as preflight — OPTIONS without Access-Control-Request-Method reaches the handler', async () => {
        const before = server.fake.requests.length;
        const res = await rawRequest(server.url('/echo'), { method: 'OPTIONS', headers: [['Origin', ALLOWED]] });
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body)).toMatchObject({ method: 'OPTIONS', path: '/echo' });
        expect(server.fake.requests.length).toBe(before + 1);
        expect(header(res, 'access-control-allow-origin')).toBe(ALLOWED);
        expect(header(res, 'access-control-allow-methods')).toBeUndefined();
      });

      it('regression: quadratic header parsing — a huge Access-Control-Request-Headers is refused, not parsed', async () => {
        // Close to Node's 16 KiB header cap; whitespace-heavy input is what a regex split choked on.
        const hostile = `${'a,'.repeat(2000)}${' '.repeat(8000)}x`;
        const res = await preflight(server.url('/echo'), ALLOWED, 'POST', hostile);
        expect(res.status).toBe(204);
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
      });

      it('regression: quadratic header parsing — a value just under the cap, mostly commas and whitespace, is still decided right', async () => {
        // Allowed names split by 60 empty entries and whitespace, one character under the length cap.
        const padded = (last: string) => {
          const head = `Content-Type,${' ,'.repeat(60)}`;
          return `${head}${' '.repeat(MAX_CORS_REQUEST_HEADERS_LENGTH - 1 - head.length - last.length - 1)},${last}`;
        };
        expect(padded('authorization')).toHaveLength(MAX_CORS_REQUEST_HEADERS_LENGTH - 1);
        const allowed = await preflight(server.url('/echo'), ALLOWED, 'POST', padded('authorization'));
        expect(allowed.status).toBe(204);
        expect(header(allowed, 'access-control-allow-origin')).toBe(ALLOWED);
        const refused = await preflight(server.url('/echo'), ALLOWED, 'POST', padded('x-not-allowed'));
        expect(refused.status).toBe(204);
        expect(header(refused, 'access-control-allow-origin')).toBeUndefined();
      });
    });

    describe('any origin ("*")', () => {
      const server = running(target, { enabled: true });

      it('answers "*" without Vary: Origin and without credentials', async () => {
        const res = await get(server.url('/echo'), [['Origin', EVIL]]);
        expect(header(res, 'access-control-allow-origin')).toBe('*');
        expect(header(res, 'access-control-allow-credentials')).toBeUndefined();
        expect(headerList(res, 'vary')).not.toContain('Origin');
      });

      it('regression: credentialed wildcard echo — the request origin is never echoed for "*"', async () => {
        const res = await preflight(server.url('/echo'), EVIL, 'POST', 'content-type');
        expect(res.status).toBe(204);
        expect(header(res, 'access-control-allow-origin')).toBe('*');
        expect(header(res, 'access-control-allow-credentials')).toBeUndefined();
        expect(header(res, 'access-control-max-age')).toBe('86400');
      });
    });

    describe('maxAge 0 and a restricted method list', () => {
      const server = running(target, { enabled: true, origin: [ALLOWED], maxAge: 0, allowMethods: ['GET', 'POST'] });

      it('sends Access-Control-Max-Age: 0', async () => {
        const res = await preflight(server.url('/echo'), ALLOWED);
        expect(header(res, 'access-control-max-age')).toBe('0');
        expect(header(res, 'access-control-allow-methods')).toBe('GET, POST');
      });

      it('refuses a preflight for a method that is not allowed', async () => {
        const res = await preflight(server.url('/echo'), ALLOWED, 'DELETE');
        expect(res.status).toBe(204);
        expect(header(res, 'access-control-allow-origin')).toBeUndefined();
      });
    });

    describe("from the authorizer (the instances' config.cors)", () => {
      let server: { origin: string; close(): Promise<void> } | undefined;
      let source: Authorizer | undefined;
      const fake = createFakeAuthorizer();
      beforeAll(async () => {
        // One instance sets cors, the other none: the one that does decides.
        source = await authorizerWithCors({ enabled: true, origin: [ALLOWED], allowHeaders: ['Authorization'] }, undefined);
        server = await target.start({ prefix: PREFIX, cors: source, authorizer: fake });
      });
      afterAll(async () => {
        await server?.close();
        await source?.close();
      });

      it('applies the cors object the instances agree on', async () => {
        const allowed = await preflight(`${server!.origin}${PREFIX}/echo`, ALLOWED, 'POST', 'authorization');
        expect(allowed.status).toBe(204);
        expect(header(allowed, 'access-control-allow-origin')).toBe(ALLOWED);
        const refused = await get(`${server!.origin}${PREFIX}/echo`, [['Origin', EVIL]]);
        expect(refused.status).toBe(200);
        expect(header(refused, 'access-control-allow-origin')).toBeUndefined();
        expect(headerList(refused, 'vary')).toContain('Origin');
      });

      it('refuses at construction an authorizer whose instances configure different cors objects', async () => {
        const differing = await authorizerWithCors({ enabled: true, origin: [ALLOWED] }, { enabled: true, origin: [EVIL] });
        try {
          expect(() => target.cors(differing)).toThrow(/Instances "instance-0" and "instance-1" configure different cors objects/);
        } finally {
          await differing.close();
        }
      });

      it('is a pass-through when no instance sets cors', async () => {
        const none = await authorizerWithCors(undefined);
        try {
          expect(() => target.cors(none)).not.toThrow();
        } finally {
          await none.close();
        }
      });
    });

    describe('disabled', () => {
      const server = running(target, { enabled: false, origin: [ALLOWED] });

      it('is a pass-through: no CORS headers, and OPTIONS reaches the handler', async () => {
        const actual = await get(server.url('/echo'), [['Origin', ALLOWED]]);
        expect(actual.status).toBe(200);
        expectNoCors(actual);
        const before = server.fake.requests.length;
        const res = await preflight(server.url('/echo'), ALLOWED);
        expectNoCors(res);
        expect(server.fake.requests.length).toBe(before + 1);
      });
    });
  });
}
