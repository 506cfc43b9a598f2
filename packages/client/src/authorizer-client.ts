import createClient, { type Client } from 'openapi-fetch';
import type {
  AuthorizationStatus,
  CreateAuthorizationBody,
  CreatedAuthorization,
  CredentialsResponse,
  DcApiBody,
  DcApiJwtBody,
  DcApiResult,
  PolicyResponse,
  ResolveResponseCodeBody,
  ResolvedResponseCode,
  TrustAnchorCertificate,
} from './api-types.js';
import { errorFromAnswer, type ResponseLimitError } from './authorizer-api-error.js';
import { responseBodyLimit } from './response-body-limit.js';
import { readStatusEvents } from './status-event-stream.js';
import type { paths } from './generated/authorizer-api.js';

export interface AuthorizerClientOptions {
  /**
   * Where the authorizer is mounted: its `publicBaseUrl` (`https://rp.example.com/authz`), or the
   * hosted authorizer's instance URL.
   */
  baseUrl: string;
  /** The instance's API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** A fetch of your own (a proxy agent, tracing); default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * The largest answer body read into memory (bytes, default 1 MiB; the authorizer's answers are a
   * few KiB): beyond it the body is cancelled and the call throws {@link ResponseLimitError}.
   * Applies to `raw` too, except to `parseAs: 'stream'`.
   */
  maxResponseBytes?: number;
  /**
   * The largest event of `streamAuthorizationEvents` (bytes of its lines, default 64 KiB; a status
   * event is under 1 KiB): beyond it the stream is closed and the iteration throws {@link ResponseLimitError}.
   */
  maxEventBytes?: number;
  /**
   * Close an event stream that sends nothing for this long (ms) and throw {@link ResponseLimitError}:
   * from the request until its answer's headers (then with `status` 0), and between chunks of its
   * body; default: no idle timeout. The authorizer sends a heartbeat every `heartbeatMs` (15 s by
   * default), so set it above that.
   */
  idleTimeoutMs?: number;
}

/** What every call accepts: a signal to give up on it. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ResolveOptions extends CallOptions {
  /**
   * 16 to 255 printable characters, fresh for each code (`crypto.randomUUID()`), the same for each
   * retry of one resolve: a retry whose first answer was lost gets that answer again (within 60 s)
   * instead of 404.
   */
  idempotencyKey?: string;
}

/** The relying-party operations of the authorizer's HTTP API; each throws {@link AuthorizerApiError} on an error answer. */
export interface AuthorizerClient {
  /** `POST …/authorizations` (201). */
  createAuthorization(body: CreateAuthorizationBody, options?: CallOptions): Promise<CreatedAuthorization>;
  /** `GET …/authorizations/{id}/status`. */
  getAuthorizationStatus(authorizationId: string, options?: CallOptions): Promise<AuthorizationStatus>;
  /**
   * `GET …/authorizations/{id}/events`: the current status, then each change; the iteration ends
   * after a terminal status, or quietly when `signal` aborts or the loop breaks (the connection is
   * released either way). It throws {@link AuthorizerApiError} when the stream is refused (401,
   * 404, 503 with `retryAfterSeconds`) and {@link UnexpectedResponseError} when it ends before a
   * terminal status (a proxy cut it: open it again or read the status).
   */
  streamAuthorizationEvents(authorizationId: string, options?: CallOptions): AsyncIterable<AuthorizationStatus>;
  /** `GET …/authorizations/{id}/policy-response`. */
  getPolicyResponse(authorizationId: string, options?: CallOptions): Promise<PolicyResponse>;
  /** `GET …/authorizations/{id}/credentials`: what the wallet disclosed, once `authorized`. */
  getCredentials(authorizationId: string, options?: CallOptions): Promise<CredentialsResponse>;
  /** `DELETE …/authorizations/{id}/personal-data`: erases what the wallet disclosed; the outcome stays. */
  erasePersonalData(authorizationId: string, options?: CallOptions): Promise<void>;
  /**
   * `POST …/response-code/resolve`. Send `authorization_id` (the id kept in the user's session):
   * a code issued for another authorization is then refused (`response_code.authorization_mismatch`).
   */
  resolveResponseCode(body: ResolveResponseCodeBody, options?: ResolveOptions): Promise<ResolvedResponseCode>;
  /** `POST …/{id}/dc_api`: hands over an unencrypted Digital Credentials API response; answers the terminal status. */
  dcApi(authorizationId: string, body: DcApiBody, options?: CallOptions): Promise<DcApiResult>;
  /** `POST …/{id}/dc_api.jwt`: the same for an encrypted response. */
  dcApiJwt(authorizationId: string, body: DcApiJwtBody, options?: CallOptions): Promise<DcApiResult>;
  /** `GET /instances/oid4vp-trust-anchor`: the root wallets must trust for this instance's requests. */
  getTrustAnchorCertificate(options?: CallOptions): Promise<TrustAnchorCertificate>;
  /** `GET /health/ready`: resolves when the authorizer and its store answer. */
  getReadiness(options?: CallOptions): Promise<void>;
  /** The openapi-fetch client underneath (same base URL and key), typed by every path of the document. */
  readonly raw: Client<paths>;
}

/**
 * A client of the authorizer's HTTP API for a relying party's backend, typed from its OpenAPI
 * document. The API key belongs on a server: never create this client in a browser page.
 */
export function createAuthorizerClient(options: AuthorizerClientOptions): AuthorizerClient {
  const baseUrl = checkedBaseUrl(options.baseUrl);
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('createAuthorizerClient: apiKey is required (one of the instance\'s apiKeys, sent as "Authorization: Bearer <apiKey>")');
  }
  const maxResponseBytes = checkedLimit('maxResponseBytes', options.maxResponseBytes, 1024 * 1024);
  const maxEventBytes = checkedLimit('maxEventBytes', options.maxEventBytes, 64 * 1024);
  const idleTimeoutMs = options.idleTimeoutMs === undefined ? undefined : checkedLimit('idleTimeoutMs', options.idleTimeoutMs, 0);
  const raw = createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  raw.use(responseBodyLimit(maxResponseBytes));

  /** The data of a 2xx answer; the error of any other. */
  async function answer<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw errorFromAnswer(response, error);
    return data as T;
  }
  const id = (authorizationId: string) => ({ params: { path: { authorizationId } } });

  return {
    raw,
    createAuthorization: (body, { signal } = {}) => answer(raw.POST('/openid4/vp/v1_0/authorizations', { body, signal })),
    getAuthorizationStatus: (authorizationId, { signal } = {}) => answer(raw.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/status', { ...id(authorizationId), signal })),
    streamAuthorizationEvents: (authorizationId, { signal } = {}) =>
      readStatusEvents((streamSignal) =>
        raw.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/events', { ...id(authorizationId), parseAs: 'stream', headers: { accept: 'text/event-stream' }, signal: streamSignal }),
      signal, { maxEventBytes, idleTimeoutMs }),
    getPolicyResponse: (authorizationId, { signal } = {}) => answer(raw.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/policy-response', { ...id(authorizationId), signal })),
    getCredentials: (authorizationId, { signal } = {}) => answer(raw.GET('/openid4/vp/v1_0/authorizations/{authorizationId}/credentials', { ...id(authorizationId), signal })),
    erasePersonalData: (authorizationId, { signal } = {}) => answer(raw.DELETE('/openid4/vp/v1_0/authorizations/{authorizationId}/personal-data', { ...id(authorizationId), signal })),
    resolveResponseCode: (body, { signal, idempotencyKey } = {}) =>
      // The header is a declared parameter of the operation (docs/openapi.json), so it goes through the typed `params.header`.
      answer(raw.POST('/openid4/vp/v1_0/response-code/resolve', { body, signal, ...(idempotencyKey === undefined ? {} : { params: { header: { 'Idempotency-Key': idempotencyKey } } }) })),
    dcApi: (authorizationId, body, { signal } = {}) => answer(raw.POST('/openid4/vp/v1_0/{authorizationId}/dc_api', { ...id(authorizationId), body, signal })),
    dcApiJwt: (authorizationId, body, { signal } = {}) => answer(raw.POST('/openid4/vp/v1_0/{authorizationId}/dc_api.jwt', { ...id(authorizationId), body, signal })),
    getTrustAnchorCertificate: ({ signal } = {}) => answer(raw.GET('/instances/oid4vp-trust-anchor', { signal })),
    getReadiness: ({ signal } = {}) => answer(raw.GET('/health/ready', { signal })),
  };
}

/** A positive integer option, or its default when absent. */
function checkedLimit(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`createAuthorizerClient: ${name} must be a positive integer; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** `baseUrl` without a trailing slash; refused unless it is an absolute http(s) URL without query or fragment. */
function checkedBaseUrl(value: unknown): string {
  const hint = 'baseUrl must be where the authorizer is mounted, as an absolute http(s) URL (its publicBaseUrl, e.g. https://rp.example.com/authz)';
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`createAuthorizerClient: ${hint}; got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(`createAuthorizerClient: ${hint}, without query, fragment or credentials; got ${url.protocol}//${url.host}${url.pathname}`);
  }
  return url.href.replace(/\/+$/, '');
}
