import { connect } from 'node:net';
import { flattenedVerify, importX509 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, memoryStore, outboundFetchPolicy, passThroughValidator, passThroughVerifier, type Authorizer, type AuthorizerStore } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { webhookSignatureProblem } from '../webhooks/verify-webhook-signature.js';
import { contractDcql, contractPresentationDefinition, encryptWalletResponse, issueContractSdJwt, verifyRequestObject } from './contract-wallet.js';
import { FAKE_SECRET_DETAIL, createFakeAuthorizer, type FakeAuthorizer } from './fake-authorizer.js';
import type { HttpTarget, MountedHttpTarget } from './http-target.js';
import { rawRequest } from '../cors-contract/raw-request.js';
import type { AnnexCGetRequest } from '../wallet/annex-c-response.js';
import { generateP256KeyPair } from '../wallet/holder-key.js';
import { createTestIssuer } from '../wallet/test-issuer.js';
import { createTestWallet } from '../wallet/test-wallet.js';
import { createResponseValidator } from './openapi-response-validator.js';

export interface HttpContractOptions {
  /** Mount prefix (default '/authz'). */
  prefix?: string;
  /**
   * Makes the store the authorizer-flow cases run on, once per mode (default: a fresh
   * memoryStore()). `cleanup` runs after that mode's cases, after the authorizer was closed.
   */
  store?: () => Promise<HttpContractStore>;
}

export interface HttpContractStore {
  store: AuthorizerStore;
  cleanup?(): Promise<void>;
}

const defaultStore = async (): Promise<HttpContractStore> => {
  const store = memoryStore({ sweepIntervalMs: 0 });
  return { store, cleanup: async () => store.close() };
};

const KEY_MAIN = 'contract-key-main-0001';
const KEY_OTHER = 'contract-key-other-0002';
/** The main instance signs webhooks with it (Standard Webhooks `whsec_` form). */
const WEBHOOK_SECRET = `whsec_${Buffer.from('contract-webhook-secret-of-32-bytes-or-more').toString('base64')}`;
const REDIRECT = 'https://rp.contract.example/callback';
/** The web origin a browser reports to the RP for a DC API presentation. */
const DC_ORIGIN = 'https://rp.contract.example';
const V = '/openid4/vp/v1_0';
/** Small enough to exceed cheaply, big enough for every legitimate request of the suite. */
const BODY_LIMIT = 32 * 1024;
const FAKE_BODY_LIMIT = 4 * 1024;

/**
 * The HTTP contract every way of serving the authorizer must meet. It runs each case over a real
 * server (127.0.0.1, random port) mounted under a prefix, once without and once with the host's
 * body parsers: adapter mechanics against a fake authorizer, then the real core's flows. Host
 * body parsers must be mounted with a limit above the authorizer's (see HttpTargetMount), so the
 * 413 cases check that the adapter enforces `bodyLimitBytes` on what a host parser read.
 */
export function describeHttpContract(name: string, target: HttpTarget, options: HttpContractOptions = {}): void {
  const prefix = options.prefix ?? '/authz';
  const features = { hostBodyParsers: true, errorPath: true, ...target.features };
  describe(`HTTP contract: ${name}`, () => {
    for (const hostBodyParsers of [false, true]) {
      const label = hostBodyParsers ? 'with host body parsers' : 'without host body parsers';
      if (hostBodyParsers && !features.hostBodyParsers) {
        it.skip(`${label} [not applicable: ${name} has no body-parser middleware]`, () => {});
        continue;
      }
      describe(label, () => {
        const server = serverFor(target, prefix, hostBodyParsers);
        describe('adapter mechanics (fake authorizer)', () => mechanicsCases(server, { hostBodyParsers, errorPath: features.errorPath, name }));
        describe('authorizer flows (createAuthorizer)', () => authorizerCases(server, { hostBodyParsers, store: options.store ?? defaultStore }));
        describe("the authorizer's configured onError (createAuthorizer)", () => configuredOnErrorCases(server));
      });
    }
  });
}

interface Server {
  prefix: string;
  mounted(): MountedHttpTarget;
  /** Resolves with the first framework-path error (already reported or future) matching `test`. */
  frameworkError(test: (error: unknown) => boolean): Promise<unknown>;
  /** Every framework-path error reported so far. */
  frameworkErrors(): readonly unknown[];
  /**
   * While on, every answer `call` receives is checked against the OpenAPI document (status
   * declared for the operation, body valid); a mismatch fails the test that made the call.
   */
  checkAnswers(on: boolean): void;
  /** A path below the prefix, or an absolute URL the authorizer handed out (request_uri, response_uri). */
  call(pathOrUrl: string, init?: RequestInit & { key?: string; answeredByHost?: boolean }): Promise<Response>;
}

/** Built once: the document is the same for every target. */
let validateAnswer: ReturnType<typeof createResponseValidator> | undefined;

function serverFor(target: HttpTarget, prefix: string, hostBodyParsers: boolean): Server {
  let mounted: MountedHttpTarget | undefined;
  const errors: unknown[] = [];
  let checking = false;
  const waiters: { test: (e: unknown) => boolean; resolve: (e: unknown) => void }[] = [];
  beforeAll(async () => {
    mounted = await target.start({
      prefix,
      hostBodyParsers,
      onFrameworkError(error) {
        errors.push(error);
        for (const w of waiters.splice(0)) (w.test(error) ? w.resolve(error) : waiters.push(w));
      },
    });
  });
  afterAll(async () => mounted?.close());
  return {
    prefix,
    mounted: () => mounted!,
    frameworkErrors: () => errors,
    frameworkError: (test) => new Promise((resolve) => {
      const seen = errors.find(test);
      if (seen !== undefined) resolve(seen);
      else waiters.push({ test, resolve });
    }),
    checkAnswers(on) {
      checking = on;
      if (on) validateAnswer ??= createResponseValidator();
    },
    async call(pathOrUrl, init = {}) {
      const { key, answeredByHost, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      const url = new URL(/^https?:/.test(pathOrUrl) ? pathOrUrl : `${mounted!.origin}${prefix}${pathOrUrl}`);
      const method = (rest.method ?? 'GET').toUpperCase();
      const res = await fetch(url, { ...rest, headers, redirect: 'manual' });
      if (checking) {
        const inside = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
        const path = inside ? url.pathname.slice(prefix.length) || '/' : url.pathname;
        const body = await res.clone().text();
        const problems = validateAnswer!({ method, path, status: res.status, contentType: res.headers.get('content-type'), body, ...(answeredByHost ? { answeredByHost } : {}) });
        if (problems.length > 0) throw new Error(`The answer does not match docs/openapi.json:\n${problems.join('\n')}`);
      }
      return res;
    },
  };
}

const describesError = (detail: string) => (error: unknown) =>
  [error, (error as { cause?: unknown })?.cause].some((e) => e instanceof Error && e.message.includes(detail));

/** About `bytes` of valid JSON (`{"a":"aaa…"}`): a host JSON parser accepts it and hands it on. */
const bigJson = (bytes: number): string => JSON.stringify({ a: 'a'.repeat(bytes) });

/**
 * A valid JSON (`{"a":"aaa…"}`) or form (`a=aaa…`) body sent as a stream: no Content-Length, so
 * the limit must hold while reading, or on the value a host parser made of it.
 */
function chunked(bytes: number, kind: 'json' | 'form' = 'json'): RequestInit {
  const encoder = new TextEncoder();
  const chunk = encoder.encode('a'.repeat(1024));
  const [open, close] = kind === 'json' ? ['{"a":"', '"}'] : ['a=', ''];
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(encoder.encode(open)),
    pull(controller) {
      if (sent >= bytes) {
        if (close) controller.enqueue(encoder.encode(close));
        return controller.close();
      }
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const type = kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return { method: 'POST', body, duplex: 'half', headers: { 'content-type': type } } as RequestInit;
}

/** Writes `data` on a fresh socket; resolves with everything received once the server closed it. */
function untilClosed(origin: string, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(data);
  });
}

/** Sends the head and part of a body, then destroys the socket; resolves once it is closed. */
function hangUpMidBody(origin: string, head: string, part: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.write(head + part, () => socket.destroy());
  });
}

function mechanicsCases(server: Server, mode: { hostBodyParsers: boolean; errorPath: boolean; name: string }): void {
  let fake: FakeAuthorizer;
  beforeAll(() => {
    fake = createFakeAuthorizer({ bodyLimitBytes: FAKE_BODY_LIMIT, basePath: server.prefix });
    server.mounted().attach(fake);
  });
  const echo = async (init?: RequestInit, query = '') => {
    const res = await server.call(`/echo${query}`, init);
    expect(res.status).toBe(200);
    return (await res.json()) as { method: string; path: string; query: [string, string][]; headers: Record<string, string | null>; body: null | { kind: string; text?: string; value?: unknown } };
  };

  it('hands over the method, the path relative to the prefix and the raw query', async () => {
    const seen = await echo({ method: 'DELETE' }, '?a=1&a=2&b=x%20y&c=%2B');
    expect(seen).toMatchObject({ method: 'DELETE', path: '/echo', query: [['a', '1'], ['a', '2'], ['b', 'x y'], ['c', '+']] });
  });

  it('serves the mount point itself as "/"', async () => {
    const before = fake.requests.length;
    const res = await server.call('');
    expect(res.status).toBe(404);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/']);
  });

  it('does not serve paths outside the prefix', async () => {
    const before = fake.requests.length;
    const outside = await fetch(`${server.mounted().origin}/elsewhere/echo`);
    const lookalike = await fetch(`${server.mounted().origin}${server.prefix}x/echo`);
    expect(outside.status).toBe(404);
    expect(lookalike.status).toBe(404);
    expect(fake.requests.length).toBe(before);
  });

  it('hands over request headers', async () => {
    const seen = await echo({ headers: { authorization: 'Bearer abc', 'content-type': 'text/plain' }, method: 'POST', body: 'x' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer abc', 'content-type': 'text/plain' });
  });

  it('hands over a repeated request header as one comma-joined value, in order', async () => {
    // Two header lines on the wire (fetch would join them itself before sending).
    const res = await rawRequest(`${server.mounted().origin}${server.prefix}/echo`, { headers: [['X-Multi', 'a'], ['X-Multi', 'b']] });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { headers: Record<string, string | null> }).headers['x-multi']).toBe('a, b');
  });

  it('hands over a JSON body intact', async () => {
    const text = '{"a":1,"b":"x+y ~&="}';
    const seen = await echo({ method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    if (seen.body?.kind === 'bytes') expect(seen.body.text).toBe(text);
    else expect(seen.body).toEqual({ kind: 'parsed', value: { a: 1, b: 'x+y ~&=' } });
    if (!mode.hostBodyParsers) expect(seen.body?.kind).toBe('bytes');
  });

  it('hands over a form body intact (never re-serialised as JSON)', async () => {
    const vpToken = JSON.stringify({ pid: ['eyJ.a-b_c.d~'] });
    const text = new URLSearchParams({ vp_token: vpToken, state: 's 1+2&=' }).toString();
    const seen = await echo({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text });
    if (seen.body?.kind === 'bytes') expect(seen.body.text).toBe(text);
    else expect(seen.body).toEqual({ kind: 'parsed', value: { vp_token: vpToken, state: 's 1+2&=' } });
    if (!mode.hostBodyParsers) expect(seen.body?.kind).toBe('bytes');
  });

  it('hands over no body for an empty POST', async () => {
    expect((await echo({ method: 'POST' })).body).toBeNull();
  });

  // With host parsers these run too: the host's limit is above ours, so the adapter must refuse
  // what the host parser read (declared length, or the parsed value of a chunked upload).
  it('answers 413 JSON for a body over the limit (declared length) and keeps serving', async () => {
    const res = await server.call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bigJson(4 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'request.body_too_large', status: 413 });
    expect((await server.call('/echo')).status).toBe(200);
  });

  it('answers 413 JSON for a streamed body that passes the limit while being read', async () => {
    const res = await server.call('/echo', chunked(4 * 1024 * 1024));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'request.body_too_large', status: 413 });
    expect((await server.call('/echo')).status).toBe(200);
  });

  it('answers 413 JSON for a streamed form body over the limit', async () => {
    const res = await server.call('/echo', chunked(64 * 1024, 'form'));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'request.body_too_large', status: 413 });
  });

  const hostReadsFirst = " [not applicable: the host's body parser reads the body before the adapter runs]";
  (mode.hostBodyParsers ? it.skip : it)(
    `regression: over-limit declared length — 413 at once, without reading, and the connection is closed${mode.hostBodyParsers ? hostReadsFirst : ''}`,
    async () => {
      // A declared gigabyte and no body at all: only an answer that reads nothing can arrive.
      const head = `POST ${server.prefix}/echo HTTP/1.1\r\nHost: contract.test\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n`;
      const received = await untilClosed(server.mounted().origin, head);
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toContain('request.body_too_large');
    },
    20_000,
  );

  const abortNotApplicable = mode.hostBodyParsers ? hostReadsFirst : mode.errorPath ? '' : ` [not applicable: ${mode.name} has no error path]`;
  (abortNotApplicable ? it.skip : it)(`regression: client disconnect mid-body — not reported as an unexpected server error${abortNotApplicable}`, async () => {
    const before = server.frameworkErrors().length;
    const head = `POST ${server.prefix}/echo HTTP/1.1\r\nHost: contract.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    await hangUpMidBody(server.mounted().origin, head, '{"a":');
    // Sequencing, not timing: the server handles the hang-up before these later connections.
    expect((await server.call('/echo')).status).toBe(200);
    expect((await server.call('/echo')).status).toBe(200);
    // node:http's own parse error for the cut-off request (Koa reports socket errors itself) is the host's.
    const fromNodeHttp = (e: unknown) => /^HPE_/.test(String((e as { code?: unknown })?.code));
    expect(server.frameworkErrors().slice(before).filter((e) => !fromNodeHttp(e)).map(String)).toEqual([]);
  });

  it('keeps two Set-Cookie headers apart and passes the app Vary through', async () => {
    const res = await server.call('/cookies');
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
  });

  it('regression: framework ETag/304 — If-None-Match never turns an answer into an empty 304', async () => {
    // Raw requests: fetch() would add Cache-Control: no-cache, which hides the 304.
    const url = `${server.mounted().origin}${server.prefix}/cookies`;
    const first = await rawRequest(url);
    expect(first.status).toBe(200);
    const again = await rawRequest(url, { headers: [['If-None-Match', first.headers.get('etag')?.[0] ?? 'W/"2-any"']] });
    expect(again.status).toBe(200);
    expect(again.body).toBe(first.body);
  });

  it('answers HEAD with the Content-Length of the GET answer', async () => {
    const get = await rawRequest(`${server.mounted().origin}${server.prefix}/cookies`);
    const head = await rawRequest(`${server.mounted().origin}${server.prefix}/cookies`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    // A HEAD answer may omit Content-Length; if it sends one, it is the GET's (never 0).
    const length = head.headers.get('content-length');
    if (length) expect(length).toEqual(get.headers.get('content-length') ?? [String(Buffer.byteLength(get.body))]);
  });

  it('answers 204 with an empty body', async () => {
    const res = await server.call('/empty');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('answers an unexpected failure with a JSON 500 that reveals nothing', async () => {
    const res = await server.call('/boom');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ type: 'server.internal_error', message: 'An internal error occurred.', status: 500 });
    expect(text).not.toContain(FAKE_SECRET_DETAIL);
  });

  (mode.errorPath ? it : it.skip)(`hands an unexpected failure to the framework's error path${mode.errorPath ? '' : ` [not applicable: ${mode.name} has no error path]`}`, async () => {
    const res = await server.call('/boom');
    expect(res.status).toBe(500);
    await res.text();
    expect(describesError(FAKE_SECRET_DETAIL)(await server.frameworkError(describesError(FAKE_SECRET_DETAIL)))).toBe(true);
  });
}

function authorizerCases(server: Server, mode: { hostBodyParsers: boolean; store: () => Promise<HttpContractStore> }): void {
  let authorizer: Authorizer | undefined;
  let subject: HttpContractStore | undefined;
  let publicBase: string;
  let hooks: WebhookReceiver | undefined;
  beforeAll(async () => {
    const [main, other, second] = await Promise.all([generateDevSigningKey(), generateDevSigningKey(), generateDevSigningKey({ dnsName: 'second.contract.example' })]);
    publicBase = `${server.mounted().origin}${server.prefix}`;
    subject = await mode.store();
    // The first webhook fails, so the retry is exercised; the receiver is on 127.0.0.1, which the
    // outbound policy refuses unless told otherwise (as here, for the test only).
    hooks = await startWebhookReceiver((n) => (n === 0 ? 500 : 200));
    authorizer = createAuthorizer({
      publicBaseUrl: publicBase,
      basePath: server.prefix,
      bodyLimitBytes: BODY_LIMIT,
      sweepIntervalMs: 0,
      store: subject.store,
      webhookDelivery: { initialBackoffMs: 20, maxBackoffMs: 200, outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }) },
      instances: [
        {
          id: 'main',
          apiKeys: [KEY_MAIN],
          signing: main.signing,
          validator: passThroughValidator(),
          verifier: passThroughVerifier(),
          webhooks: { secret: WEBHOOK_SECRET },
          config: { openId4vp: { dcApi: { allowedOrigins: [DC_ORIGIN] } } },
        },
        // Two signing identities: multi-signed DC API requests carry one signature per identity.
        { id: 'other', apiKeys: [KEY_OTHER], signing: [other.signing, { ...second.signing, clientIdPrefix: 'x509_san_dns' }], validator: passThroughValidator(), verifier: passThroughVerifier() },
      ],
    });
    await authorizer.ready();
    server.mounted().attach(authorizer);
    server.checkAnswers(true);
  });
  afterAll(async () => {
    server.checkAnswers(false);
    await authorizer?.close();
    await hooks?.close();
    await subject?.cleanup?.();
  });

  const json = (body: unknown, key = KEY_MAIN): RequestInit & { key: string } => ({ method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const create = async (body: Record<string, unknown>, init: RequestInit = {}) => {
    const res = await server.call(`${V}/authorizations`, { ...json(body), ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
    expect(res.status).toBe(201);
    return (await res.json()) as Record<string, unknown> & { authorizationId: string };
  };
  const dcqlDirectPostJwt = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql }, redirectUri: REDIRECT };
  const requestObjectOf = async (created: Record<string, unknown>) => {
    const requestUri = new URL(String(created.authorizeUrl)).searchParams.get('request_uri')!;
    const res = await server.call(requestUri);
    expect(res.status).toBe(200);
    return verifyRequestObject(await res.text());
  };
  const status = async (id: string) => (await (await server.call(`${V}/authorizations/${id}/status`, { key: KEY_MAIN })).json()) as { status: string };

  it('GET /health → 204', async () => {
    const res = await server.call('/health');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('GET /health/ready → 204 (the store answers), without an API key', async () => {
    const res = await server.call('/health/ready');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('creates a DCQL direct_post.jwt authorization (201) with URLs from the configured base only', async () => {
    // Forwarded headers must not move the URLs handed to wallets.
    const created = await create(dcqlDirectPostJwt, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example' } });
    expect(Object.keys(created).sort()).toEqual(['authorizationEndpoint', 'authorizationId', 'authorizeUrl', 'expiresAt', 'nonce']);
    expect(String(created.authorizeUrl).startsWith(String(created.authorizationEndpoint))).toBe(true);
    const url = new URL(String(created.authorizeUrl));
    expect(url.searchParams.get('request_uri')).toBe(`${publicBase}${V}/authorizations/${created.authorizationId}/jwt`);
    expect(url.searchParams.get('request_uri_method')).toBe('post');
    expect(url.searchParams.get('client_id')).toBeTruthy();
  });

  it('creates a Presentation Exchange direct_post authorization (201)', async () => {
    const created = await create({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: contractPresentationDefinition } });
    expect(created).toMatchObject({ authorizationId: expect.any(String), nonce: expect.any(String), authorizeUrl: expect.any(String) });
  });

  it('creates an unsigned DC API authorization (201)', async () => {
    const created = await create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: contractDcql } });
    expect(Object.keys(created).sort()).toEqual(['authorizationId', 'digitalCredentialGetRequest', 'expiresAt', 'nonce', 'responseUrl']);
    expect(created.digitalCredentialGetRequest).toMatchObject({ protocol: 'openid4vp-v1-unsigned', data: { response_mode: 'dc_api', nonce: created.nonce, dcql_query: contractDcql } });
    expect(String(created.responseUrl).startsWith(publicBase)).toBe(true);
  });

  it('creates a signed DC API authorization (201) whose request verifies against its x5c', async () => {
    const created = await create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.contract.example'], query: { type: 'DCQL', dcql: contractDcql } });
    const request = (created.digitalCredentialGetRequest as { protocol: string; data: { request: string } });
    expect(request.protocol).toBe('openid4vp-v1-signed');
    const { payload } = await verifyRequestObject(request.data.request);
    expect(payload).toMatchObject({ nonce: created.nonce, expected_origins: ['https://rp.contract.example'] });
  });

  it('creates a multi-signed DC API authorization whose every signature verifies against its own x5c and names its own client_id', async () => {
    const res = await server.call(`${V}/authorizations`, json({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-multisigned', expectedOrigins: ['https://rp.contract.example'], query: { type: 'DCQL', dcql: contractDcql } }, KEY_OTHER));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { nonce: string; digitalCredentialGetRequest: { protocol: string; data: { payload: string; signatures: { protected: string; signature: string }[] } } };
    expect(created.digitalCredentialGetRequest.protocol).toBe('openid4vp-v1-multisigned');
    const { payload, signatures } = created.digitalCredentialGetRequest.data;
    expect(signatures).toHaveLength(2);
    const clientIds: unknown[] = [];
    for (const signature of signatures) {
      const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString()) as { x5c: string[]; client_id: string };
      const key = await importX509(`-----BEGIN CERTIFICATE-----\n${header.x5c[0]}\n-----END CERTIFICATE-----`, 'ES256');
      const verified = await flattenedVerify({ payload, ...signature }, key, { algorithms: ['ES256'] });
      expect(JSON.parse(new TextDecoder().decode(verified.payload))).toMatchObject({ nonce: created.nonce, expected_origins: ['https://rp.contract.example'] });
      clientIds.push(header.client_id);
    }
    expect(clientIds[0]).toMatch(/^x509_hash:/);
    expect(clientIds[1]).toBe('x509_san_dns:second.contract.example');
  });

  it('answers an unsigned DC API response (POST …/dc_api with the RP key) with the terminal status', async () => {
    const created = await create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: contractDcql } });
    const path = `${V}/${created.authorizationId}/dc_api`;
    expect(created.responseUrl).toBe(`${publicBase}${path}`);
    const body = { origin: DC_ORIGIN, digitalCredentialGetResponse: { vp_token: { pid: [await issueContractSdJwt()] } } };
    // The route is the RP's: no key → 401, another instance's key → 404; neither consumes the authorization.
    expect((await server.call(path, { ...json(body), key: '' })).status).toBe(401);
    expect((await server.call(path, json(body, KEY_OTHER))).status).toBe(404);
    expect(await status(created.authorizationId)).toEqual({ status: 'pending' });
    const res = await server.call(path, json(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'authorized' });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
    // Answered once: a second response is refused and the first result stays.
    const again = await server.call(path, json(body));
    expect(again.status).toBe(400);
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('answers a signed DC API response (POST …/dc_api.jwt, encrypted to the request key) only from an expected origin', async () => {
    const created = await create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: [DC_ORIGIN], query: { type: 'DCQL', dcql: contractDcql } });
    const path = `${V}/${created.authorizationId}/dc_api.jwt`;
    expect(created.responseUrl).toBe(`${publicBase}${path}`);
    const { payload } = await verifyRequestObject((created.digitalCredentialGetRequest as { data: { request: string } }).data.request);
    const response = await encryptWalletResponse(payload, { vp_token: { pid: [await issueContractSdJwt()] } });

    const refused = await server.call(path, json({ origin: 'https://evil.contract.example', digitalCredentialGetResponse: { response } }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'authorization.origin_mismatch', status: 400 });
    // The refusal claimed nothing: the right origin still gets through with the same response.
    expect(await status(created.authorizationId)).toEqual({ status: 'pending' });

    const res = await server.call(path, json({ origin: DC_ORIGIN, digitalCredentialGetResponse: { response } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'authorized' });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('authorizes an org-iso-mdoc (ISO/IEC 18013-7 Annex C) response at …/dc_api, and refuses one sealed to another key or for another origin without changing anything', async () => {
    const issuer = await createTestIssuer();
    const wallet = await createTestWallet();
    await wallet.addMdoc(issuer, { docType: 'org.iso.18013.5.1.mDL', namespaces: { 'org.iso.18013.5.1': { family_name: 'Doe', given_name: 'Jo' } } });
    const created = await create({
      responseMode: 'dc_api',
      protocol: 'org-iso-mdoc',
      expectedOrigins: [DC_ORIGIN],
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] }] } },
    });
    const getRequest = created.digitalCredentialGetRequest as AnnexCGetRequest;
    expect(getRequest.protocol).toBe('org-iso-mdoc');
    expect(Buffer.from(created.nonce as string, 'base64url')).toHaveLength(16);
    const path = `${V}/${created.authorizationId}/dc_api`;
    expect(created.responseUrl).toBe(`${publicBase}${path}`);

    const otherKey = await wallet.respondAnnexC(getRequest, { origin: DC_ORIGIN, tamper: { recipientPublicJwk: (await generateP256KeyPair()).publicJwk } });
    const refused = await server.call(path, json({ origin: DC_ORIGIN, digitalCredentialGetResponse: otherKey.digitalCredentialGetResponse }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'authorization.annex_c_decryption_failed', status: 400 });
    const otherOrigin = await wallet.respondAnnexC(getRequest, { origin: 'https://evil.contract.example' });
    const elsewhere = await server.call(path, json({ origin: 'https://evil.contract.example', digitalCredentialGetResponse: otherOrigin.digitalCredentialGetResponse }));
    expect(await elsewhere.json()).toMatchObject({ type: 'authorization.origin_mismatch', status: 400 });
    expect(await status(created.authorizationId)).toEqual({ status: 'pending' });

    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(getRequest, { origin: DC_ORIGIN });
    const res = await server.call(path, json({ origin: DC_ORIGIN, digitalCredentialGetResponse }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'authorized' });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('answers 401 without an API key and with a wrong one', async () => {
    for (const key of [undefined, 'not-a-configured-key']) {
      const res = await server.call(`${V}/authorizations`, { ...json(dcqlDirectPostJwt), ...(key ? { key } : { key: '' }) });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ type: 'auth.unauthorized', status: 401 });
    }
  });

  it('answers 404 when another instance asks for an authorization', async () => {
    const created = await create(dcqlDirectPostJwt);
    expect((await server.call(`${V}/authorizations/${created.authorizationId}/status`, { key: KEY_MAIN })).status).toBe(200);
    expect((await server.call(`${V}/authorizations/${created.authorizationId}/status`, { key: KEY_OTHER })).status).toBe(404);
  });

  it('serves the signed request object by GET and by POST (wallet_nonce echoed)', async () => {
    const created = await create(dcqlDirectPostJwt);
    const got = await requestObjectOf(created);
    expect(got.header).toMatchObject({ typ: 'oauth-authz-req+jwt', x5c: expect.any(Array) });
    expect(got.payload).toMatchObject({ nonce: created.nonce, response_mode: 'direct_post.jwt', response_uri: `${publicBase}${V}/${created.authorizationId}/direct_post.jwt` });
    const res = await server.call(`${V}/authorizations/${created.authorizationId}/jwt`, form({ wallet_nonce: 'contract-wallet-nonce-1' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/oauth-authz-req\+jwt/);
    expect((await verifyRequestObject(await res.text())).payload.wallet_nonce).toBe('contract-wallet-nonce-1');
  });

  it('HEAD on the request object changes nothing: 405 with Allow, no body, the authorization stays created and GET still makes the first fetch', async () => {
    const created = await create(dcqlDirectPostJwt);
    const requestUri = new URL(String(created.authorizeUrl)).searchParams.get('request_uri')!;
    // Through the host's own HEAD handling too (Express routes HEAD to GET handlers, Fastify
    // exposes HEAD routes, Hono dispatches HEAD as GET): the core must still see HEAD.
    for (let i = 0; i < 2; i++) {
      const head = await server.call(requestUri, { method: 'HEAD' });
      expect(head.status).toBe(405);
      expect(head.headers.get('allow')).toBe('GET, POST');
      expect(await head.text()).toBe('');
    }
    expect(await status(created.authorizationId)).toEqual({ status: 'created' });
    // HEAD where GET changes nothing is still answered like GET.
    const statusHead = await server.call(`${V}/authorizations/${created.authorizationId}/status`, { method: 'HEAD', key: KEY_MAIN });
    expect(statusHead.status).toBe(200);
    expect(statusHead.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await statusHead.text()).toBe('');
    await requestObjectOf(created);
    expect(await status(created.authorizationId)).toEqual({ status: 'pending' });
  });

  it('runs the full flow: encrypted wallet response → redirect with code → resolve once', async () => {
    const created = await create(dcqlDirectPostJwt);
    const { payload } = await requestObjectOf(created);
    const response = await encryptWalletResponse(payload, { vp_token: { pid: [await issueContractSdJwt()] }, state: payload.state });
    const posted = await server.call(String(payload.response_uri), form({ response }));
    expect(posted.status).toBe(200);
    const { redirect_uri } = (await posted.json()) as { redirect_uri: string };
    expect(redirect_uri.startsWith(`${REDIRECT}?response_code=`)).toBe(true);
    const code = new URL(redirect_uri).searchParams.get('response_code')!;
    const resolve = () => server.call(`${V}/response-code/resolve`, json({ response_code: code }));
    const first = await resolve();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    expect((await resolve()).status).toBe(404);
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
    const policy = await server.call(`${V}/authorizations/${created.authorizationId}/policy-response`, { key: KEY_MAIN });
    expect(policy.status).toBe(200);
    expect(await policy.json()).toMatchObject({ authorizationId: created.authorizationId, data: expect.any(Array) });
    const credentials = await server.call(`${V}/authorizations/${created.authorizationId}/credentials`, { key: KEY_MAIN });
    expect(credentials.status).toBe(200);
    expect(await credentials.json()).toMatchObject({ authorizationId: created.authorizationId, credentials: expect.any(Array) });
  });

  it('erases what a wallet disclosed with DELETE …/personal-data: 204 twice, then 410 on credentials, the status kept; 404 for another instance, 409 before the outcome', async () => {
    const created = await create(dcqlDirectPostJwt);
    const erase = (key = KEY_MAIN) => server.call(`${V}/authorizations/${created.authorizationId}/personal-data`, { method: 'DELETE', key });
    const early = await erase();
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ type: 'authorization.not_finished' });
    const { payload } = await requestObjectOf(created);
    const response = await encryptWalletResponse(payload, { vp_token: { pid: [await issueContractSdJwt()] }, state: payload.state });
    expect((await server.call(String(payload.response_uri), form({ response }))).status).toBe(200);
    expect((await erase(KEY_OTHER)).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      const erased = await erase();
      expect(erased.status).toBe(204);
      expect(await erased.text()).toBe('');
    }
    const credentials = await server.call(`${V}/authorizations/${created.authorizationId}/credentials`, { key: KEY_MAIN });
    expect(credentials.status).toBe(410);
    expect(await credentials.json()).toMatchObject({ type: 'authorization.data_erased' });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('sends each status change of a flow as a signed webhook to the create request\'s webhookUrl, retrying a failure with the same id', async () => {
    const created = await create({ ...dcqlDirectPostJwt, webhookUrl: hooks!.url('/contract-hooks') });
    const { payload } = await requestObjectOf(created);
    const response = await encryptWalletResponse(payload, { vp_token: { pid: [await issueContractSdJwt()] }, state: payload.state });
    expect((await server.call(String(payload.response_uri), form({ response }))).status).toBe(200);
    const received = await hooks!.waitFor(5);
    expect(received.map((r) => r.answer)).toEqual([500, 200, 200, 200, 200]);
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    const delivered = received.slice(1).map((r) => r.json as { type: string; data: { authorizationId: string; status: string } });
    expect(delivered.map((d) => d.type)).toEqual(['authorization.created', 'authorization.pending', 'authorization.processing', 'authorization.authorized']);
    for (const d of delivered) expect(d.data.authorizationId).toBe(created.authorizationId);
    for (const r of received) expect(webhookSignatureProblem(WEBHOOK_SECRET, r.headers, r.body)).toBeNull();
  });

  it('refuses a webhookUrl (400) for an instance without webhooks, and one outside the outbound policy', async () => {
    const refused = await server.call(`${V}/authorizations`, json({ ...dcqlDirectPostJwt, webhookUrl: 'https://rp.contract.example/hooks' }, KEY_OTHER));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'webhook.not_configured' });
    const outside = await server.call(`${V}/authorizations`, json({ ...dcqlDirectPostJwt, webhookUrl: 'file:///etc/passwd' }));
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({ type: 'webhook.url_refused' });
  });

  it('refuses a second wallet response (400) and keeps the first result', async () => {
    const created = await create(dcqlDirectPostJwt);
    const { payload } = await requestObjectOf(created);
    const response = await encryptWalletResponse(payload, { vp_token: { pid: [await issueContractSdJwt()] }, state: payload.state });
    expect((await server.call(String(payload.response_uri), form({ response }))).status).toBe(200);
    const again = await server.call(String(payload.response_uri), form({ response }));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: expect.any(String) });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it(`accepts a form-encoded direct_post ${mode.hostBodyParsers ? 'already parsed by the host' : 'read from the stream'}`, async () => {
    const created = await create({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql }, redirectUri: REDIRECT });
    const { payload } = await requestObjectOf(created);
    const posted = await server.call(String(payload.response_uri), form({ vp_token: JSON.stringify({ pid: [await issueContractSdJwt()] }), state: String(payload.state) }));
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ redirect_uri: expect.stringContaining('response_code=') });
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('accepts a Presentation Exchange direct_post (vp_token + presentation_submission form fields)', async () => {
    const created = await create({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: contractPresentationDefinition } });
    const { payload } = await requestObjectOf(created);
    const submission = { id: 'contract-submission', definition_id: contractPresentationDefinition.id, descriptor_map: [{ id: 'pid', format: 'vc+sd-jwt', path: '$' }] };
    const posted = await server.call(String(payload.response_uri), form({ vp_token: await issueContractSdJwt(), presentation_submission: JSON.stringify(submission), state: String(payload.state) }));
    expect(posted.status).toBe(200);
    expect(await status(created.authorizationId)).toEqual({ status: 'authorized' });
  });

  it('answers 413 for a body over the configured limit', async () => {
    const big = { ...dcqlDirectPostJwt, nonce: 'n'.repeat(200), padding: 'x'.repeat(BODY_LIMIT * 2) };
    const res = await server.call(`${V}/authorizations`, json(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'request.body_too_large', status: 413 });
  });

  // The wallet-or-relying-party error format is the authorizer's to choose, for a refusal an
  // adapter or a host parser ran into too.
  for (const streamed of [false, true]) {
    it(`answers 413 in the wallet (OAuth) error format on a wallet route (${streamed ? 'chunked' : 'declared length'})`, async () => {
      const text = `vp_token=${'a'.repeat(BODY_LIMIT * 2)}&state=s`;
      const init = streamed ? chunked(BODY_LIMIT * 2, 'form') : { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text };
      const res = await server.call(`${V}/some-authorization/direct_post`, init);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });
  }

  it('answers 415 for a wrong content type', async () => {
    const res = await server.call(`${V}/authorizations`, { ...json(dcqlDirectPostJwt), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ type: 'request.unsupported_media_type', status: 415 });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await server.call(`${V}/authorizations`, { ...json({}), body: '{"responseMode":', answeredByHost: mode.hostBodyParsers });
    expect(res.status).toBe(400);
    // With a host JSON parser mounted, the host rejects it first and answers in its own format.
    if (!mode.hostBodyParsers) expect(await res.json()).toMatchObject({ type: 'request.invalid_json', status: 400 });
  });

  it('answers 404 JSON for an unknown route and 405 for a known path with another method', async () => {
    const unknown = await server.call('/no/such/route');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'request.route_not_found', status: 404 });
    expect((await server.call('/health', { method: 'DELETE' })).status).toBe(405);
  });

  it('serves the public metadata and the RP trust anchor', async () => {
    const config = await server.call(`${V}/.well-known/openid-configuration`);
    expect(config.status).toBe(200);
    const jwks = (await (await server.call(`${V}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(Array.isArray(jwks.keys)).toBe(true);
    // Every instance signs: an empty set would make the per-key check below vacuous.
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of jwks.keys) expect(key.d).toBeUndefined();
    expect((await server.call('/instances/oid4vp-trust-anchor')).status).toBe(401);
    const anchor = await server.call('/instances/oid4vp-trust-anchor', { key: KEY_MAIN });
    expect(anchor.status).toBe(200);
    expect(await anchor.json()).toMatchObject({ anchorType: expect.any(String), certificate: expect.stringContaining('BEGIN CERTIFICATE') });
  });
}

/**
 * `createAuthorizer({ onError })` receives every unexpected error once, whichever way the request
 * came in: an adapter passes its own reporter to serve() (for the framework's error path) in
 * addition to the configured one, never instead of it.
 */
function configuredOnErrorCases(server: Server): void {
  const reported: unknown[] = [];
  const bug = new Error('store bug');
  let authorizer: Authorizer | undefined;
  beforeAll(async () => {
    const { signing } = await generateDevSigningKey();
    const store = memoryStore({ sweepIntervalMs: 0 });
    authorizer = createAuthorizer({
      publicBaseUrl: `${server.mounted().origin}${server.prefix}`,
      basePath: server.prefix,
      sweepIntervalMs: 0,
      store: Object.assign(Object.create(store) as typeof store, { create: async () => Promise.reject(bug) }),
      onError: (error) => void reported.push(error),
      instances: [{ id: 'main', apiKeys: [KEY_MAIN], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
    });
    server.mounted().attach(authorizer);
  });
  afterAll(async () => authorizer?.close());

  it('is called once for an unexpected failure, which answers 500', async () => {
    const res = await server.call(`${V}/authorizations`, {
      method: 'POST',
      key: KEY_MAIN,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    expect(res.status).toBe(500);
    await res.text();
    expect(reported).toEqual([bug]);
  });
}
