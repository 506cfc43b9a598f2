import { AuthorizerError, type Authorizer, type HandleOptions } from '@vp-authorizer/core';
import { readBodyWithLimit, type CoreRequest, type CoreResponse } from '@vp-authorizer/core/http';

export interface FakeAuthorizer extends Authorizer {
  /** Every request the adapter handed over, in order. */
  readonly requests: CoreRequest[];
}

/** Detail the fake's unexpected failure carries; it must never reach a response body. */
export const FAKE_SECRET_DETAIL = 'fake-internal-detail-7f3a';

const json = (status: number, body: unknown, extra: [string, string][] = []): CoreResponse => ({
  status,
  headers: [['content-type', 'application/json; charset=utf-8'], ...extra],
  body: JSON.stringify(body),
});

/**
 * A stand-in Authorizer for adapter mechanics (no protocol): what the adapter handed over, two
 * Set-Cookie headers, an app Vary, an unexpected failure. Routes, relative to the mount point:
 * - any method `/echo`: 200 `{method, path, query, headers, body}` describing the CoreRequest
 * - GET `/cookies`: 200 with `Set-Cookie: a=1…`, `Set-Cookie: b=2…` and `Vary: Accept-Encoding`
 * - GET `/boom`: reports an Error to onError and answers a bare JSON 500
 * - GET `/empty`: 204; anything else: 404 JSON
 */
export function createFakeAuthorizer(options: { bodyLimitBytes?: number; basePath?: string } = {}): FakeAuthorizer {
  const requests: CoreRequest[] = [];
  const bodyLimitBytes = options.bodyLimitBytes ?? 64 * 1024;

  async function handle(request: CoreRequest, handleOptions: HandleOptions = {}): Promise<CoreResponse> {
    requests.push(request);
    if (request.path === '/echo') {
      const body = request.body?.kind === 'bytes' ? { kind: 'bytes', text: new TextDecoder().decode(request.body.bytes) } : request.body ? { kind: 'parsed', value: request.body.value } : null;
      const headers = Object.fromEntries(['content-type', 'authorization', 'x-multi'].map((n) => [n, request.headers.get(n)]));
      return json(200, { method: request.method, path: request.path, query: [...request.query], headers, body });
    }
    if (request.path === '/cookies') {
      return json(200, {}, [['set-cookie', 'a=1; Path=/'], ['set-cookie', 'b=2; Path=/; HttpOnly'], ['vary', 'Accept-Encoding']]);
    }
    if (request.path === '/boom') {
      handleOptions.onError?.(new Error(`fake failure: ${FAKE_SECRET_DETAIL}`));
      return json(500, { type: 'server.internal_error', message: 'An internal error occurred.', status: 500 });
    }
    if (request.path === '/empty') return { status: 204, headers: [] };
    return json(404, { type: 'request.route_not_found', message: 'No such endpoint.', status: 404 });
  }

  return {
    requests,
    handle,
    bodyLimitBytes,
    async fetch(request: Request) {
      const url = new URL(request.url);
      const base = options.basePath ?? '';
      if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return new Response(null, { status: 404 });
      const path = url.pathname.slice(base.length) || '/';
      let answer: CoreResponse;
      try {
        // Like the core's fetch(): refuse an over-limit declared length before reading anything.
        if (Number(request.headers.get('content-length') ?? 0) > bodyLimitBytes) throw new AuthorizerError('request.body_too_large');
        const bytes = request.body ? await readBodyWithLimit(request.body, bodyLimitBytes) : new Uint8Array(0);
        answer = await handle({ method: request.method, path, query: url.searchParams, headers: request.headers, ...(bytes.byteLength > 0 ? { body: { kind: 'bytes', bytes } } : {}) });
      } catch (error) {
        const e = error instanceof AuthorizerError ? error : new AuthorizerError('server.internal_error');
        answer = json(e.status, { type: e.code, message: e.message, status: e.status });
      }
      const headers = new Headers();
      for (const [name, value] of answer.headers) headers.append(name, value);
      return new Response(answer.body ?? null, { status: answer.status, headers });
    },
    async close() {},
    ...unsupported(),
  } as FakeAuthorizer;
}

// The typed operations are out of scope for adapter tests.
function unsupported(): Partial<Authorizer> {
  const no = async () => {
    throw new Error('not supported by the fake authorizer');
  };
  return {
    createAuthorization: no,
    getStatus: no,
    getPolicyResponse: no,
    getCredentials: no,
    getRequestObject: no,
    submitWalletResponse: no,
    submitDcApiResponse: no,
    resolveResponseCode: no,
    sweepExpired: no,
    ready: async () => {},
  };
}
