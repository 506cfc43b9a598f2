import { CODES, createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { type CoreRequest, type CoreResponse } from '@vp-authorizer/core/http';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { expect } from 'vitest';

export const API_KEY = 'hardening-key-main-0001';
export const OTHER_KEY = 'hardening-key-other-0001';
export const V = '/openid4/vp/v1_0';
export const DCQL_SD_JWT = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] };
export const DCQL_MIXED = {
  credentials: [
    { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } },
    { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] },
    { id: 'vc', format: 'jwt_vc_json', multiple: true },
  ],
};
export const PE_DEFINITION = { id: 'pd', input_descriptors: [{ id: 'd1', format: { 'vc+sd-jwt': {}, jwt_vp_json: {} } }, { id: 'd2' }] };

/** The wallet-facing paths, which answer OAuth-style errors. Written out here, not derived from routes.ts. */
export const isWalletPath = (path: string) => /^\/openid4\/vp\/v1_0\/(?:authorizations\/[^/]+\/jwt|[^/]+\/direct_post(?:\.jwt)?)$/.test(path);

const HTTP_CODES = new Map(Object.entries(CODES).flatMap(([code, entry]) => (entry.kind === 'http' ? [[code, entry] as const] : [])));
const OAUTH_ERRORS = new Set([...HTTP_CODES.values()].map((c) => c.oauth));

export interface FuzzEnv {
  authorizer: Authorizer;
  /** Errors handed to onError: any entry is a bug (an input reached the internal-error path). */
  unexpected: unknown[];
  handle(request: CoreRequest): Promise<CoreResponse>;
  req(method: string, path: string, init?: { key?: string | null; type?: string; body?: CoreRequest['body']; query?: string; headers?: Record<string, string> }): CoreRequest;
  close(): Promise<void>;
}

let dev: Awaited<ReturnType<typeof generateDevSigningKey>> | undefined;

/**
 * One authorizer for in-process fuzzing: the main instance uses the real in-process validator and
 * verifier from @vp-authorizer/local (cheap here: fuzzed responses rarely get past the format
 * policy), a second instance uses pass-through clients so cross-instance access can be probed.
 */
export async function startFuzzAuthorizer(): Promise<FuzzEnv> {
  dev ??= await generateDevSigningKey();
  const unexpected: unknown[] = [];
  const authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example/authz',
    store: memoryStore({ sweepIntervalMs: 0 }),
    sweepIntervalMs: 0,
    onError: (error) => unexpected.push(error),
    instances: [
      {
        id: 'main',
        apiKeys: [API_KEY],
        signing: dev.signing,
        validator: localValidator(),
        verifier: localVerifier({ trustAnchors: [dev.rootCertificatePem] }),
        config: { openId4vp: { redirectUri: 'https://rp.example/callback' } },
      },
      { id: 'other', apiKeys: [OTHER_KEY], signing: dev.signing, validator: passThroughValidator(), verifier: passThroughVerifier() },
    ],
  });
  await authorizer.ready();
  return {
    authorizer,
    unexpected,
    handle: async (request) => {
      const response = await authorizer.handle(request);
      // An event stream holds a slot until it ends; the fuzz judges the answer's status and head only.
      response.stream?.cancel();
      return response;
    },
    req(method, path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key !== null) headers.set('authorization', `Bearer ${init.key ?? API_KEY}`);
      if (init.type !== undefined) headers.set('content-type', init.type);
      return { method, path, query: new URLSearchParams(init.query ?? ''), headers, ...(init.body ? { body: init.body } : {}) };
    },
    close: () => authorizer.close(),
  };
}

export const jsonBody = (value: unknown): CoreRequest['body'] => ({ kind: 'bytes', bytes: new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)) });
export const formBody = (fields: Record<string, string> | string): CoreRequest['body'] => ({ kind: 'bytes', bytes: new TextEncoder().encode(typeof fields === 'string' ? fields : new URLSearchParams(fields).toString()) });

export async function createAuthorization(env: FuzzEnv, body: Record<string, unknown>, key = API_KEY): Promise<Record<string, string>> {
  const res = await env.handle(env.req('POST', `${V}/authorizations`, { key, type: 'application/json', body: jsonBody(body) }));
  expect(res.status, res.body).toBe(201);
  return JSON.parse(res.body!) as Record<string, string>;
}

/** Fetch the request object as a wallet would (moves the authorization to pending). */
export async function fetchRequestObject(env: FuzzEnv, id: string): Promise<{ jwt: string; claims: Record<string, unknown> }> {
  const res = await env.handle(env.req('POST', `${V}/authorizations/${id}/jwt`, { key: null, type: 'application/x-www-form-urlencoded', body: formBody({ wallet_nonce: 'wn-123' }) }));
  expect(res.status, res.body).toBe(200);
  const jwt = res.body!;
  return { jwt, claims: JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown> };
}

export async function statusOf(env: FuzzEnv, id: string, key = API_KEY): Promise<string> {
  const res = await env.handle(env.req('GET', `${V}/authorizations/${id}/status`, { key }));
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body!) as { status: string }).status;
}

/**
 * The HTTP contract every answer must meet: never 5xx (no store failure is injected here), a JSON
 * body on every non-empty answer, and on 4xx a stable error code in the audience's shape.
 */
export function expectContract(path: string, method: string, res: CoreResponse): void {
  const label = `${method} ${path.slice(0, 120)} → ${res.status} ${res.body?.slice(0, 200) ?? ''}`;
  expect(res.status, label).toBeGreaterThanOrEqual(200);
  expect(res.status, label).toBeLessThan(500);
  const header = (name: string) => res.headers.find(([n]) => n.toLowerCase() === name)?.[1];
  if (res.status === 204) {
    expect(res.body ?? '', label).toBe('');
    return;
  }
  // HEAD bodies are checked by their own test (routes.fuzz.test.ts), so that one known gap does
  // not stop this contract from being checked on every other input.
  if (method.toUpperCase() === 'HEAD' && (res.status < 400 || !res.body)) {
    expect(res.body ?? '', label).toBe('');
    return;
  }
  if (res.status >= 400) {
    expect(header('content-type') ?? '', label).toMatch(/^application\/json/);
    const body = JSON.parse(res.body!) as Record<string, unknown>;
    if (isWalletPath(path)) {
      expect(OAUTH_ERRORS.has(body.error as never), label).toBe(true);
      expect(typeof body.error_description, label).toBe('string');
      expect(body.type, label).toBeUndefined();
    } else {
      expect(HTTP_CODES.has(body.type as string), label).toBe(true);
      expect(body.status, label).toBe(res.status);
      expect(HTTP_CODES.get(body.type as string)!.status, label).toBe(res.status);
      expect(typeof body.message, label).toBe('string');
    }
    if (res.status === 405) expect(header('allow') ?? '', label).toMatch(/^(GET|POST|DELETE)/);
    return;
  }
  // A 2xx is JSON, a request object, or an event stream (which streams instead of carrying a body).
  if (res.stream) {
    expect(header('content-type') ?? '', label).toMatch(/^text\/event-stream/);
    expect(res.body, label).toBeUndefined();
    return;
  }
  expect(header('content-type') ?? '', label).toMatch(/^application\/(json|oauth-authz-req\+jwt)/);
  if (header('content-type')!.startsWith('application/json')) expect(() => JSON.parse(res.body!), label).not.toThrow();
}
