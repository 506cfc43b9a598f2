/** The wallet's side of a direct_post.jwt flow, split into steps so a fault can be placed between them. */
import { contractDcql, encryptWalletResponse, issueContractSdJwt } from '@vp-authorizer/testing/contracts';

export type Api = (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>;

export interface PreparedResponse {
  authorizationId: string;
  responseUri: string;
  /** The encrypted response form body (`response=<JWE>`), ready to post (any number of times). */
  form: string;
}

const decodeJwt = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

const withDeadline = (ms: number) => AbortSignal.timeout(ms);

/** Create an authorization, fetch its request object as a wallet, and encrypt a valid response to it. */
export async function prepareWalletResponse(api: Api, createExtra: Record<string, unknown> = {}): Promise<PreparedResponse> {
  const created = await api('/openid4/vp/v1_0/authorizations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql }, ...createExtra }),
    signal: withDeadline(10_000),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { authorizationId, authorizeUrl } = (await created.json()) as { authorizationId: string; authorizeUrl: string };
  const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
  const ro = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', signal: withDeadline(10_000) });
  if (ro.status !== 200) throw new Error(`request object answered ${ro.status}`);
  const jwt = await ro.text();
  const claims = decodeJwt(jwt) as { response_uri: string; state: string };
  const response = await encryptWalletResponse(claims, { vp_token: { pid: [await issueContractSdJwt()] }, state: claims.state });
  return { authorizationId, responseUri: claims.response_uri, form: new URLSearchParams({ response }).toString() };
}

export interface WalletAnswer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  ms: number;
}

/** Post the prepared response (to `responseUri`, or the same path on another origin). */
export async function postWalletResponse(prepared: PreparedResponse, options: { origin?: string; timeoutMs?: number } = {}): Promise<WalletAnswer> {
  const target = options.origin ? prepared.responseUri.replace(/^https?:\/\/[^/]+/, options.origin) : prepared.responseUri;
  const started = Date.now();
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: prepared.form,
    signal: withDeadline(options.timeoutMs ?? 20_000),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { unparsable: text.slice(0, 200) };
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
}

export async function readStatus(api: Api, id: string): Promise<{ code: number; body: Record<string, unknown> }> {
  const res = await api(`/openid4/vp/v1_0/authorizations/${id}/status`, { signal: withDeadline(10_000) });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { unparsable: text.slice(0, 200) };
  }
  return { code: res.status, body };
}

export async function readPolicyResponse(api: Api, id: string): Promise<{ code: number; data: Record<string, unknown>[] }> {
  const res = await api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`, { signal: withDeadline(10_000) });
  const body = (await res.json()) as { data?: Record<string, unknown>[] };
  return { code: res.status, data: body.data ?? [] };
}

/** The code the wallet was redirected with, if any. */
export const responseCodeOf = (answer: WalletAnswer): string | undefined => {
  const uri = answer.body.redirect_uri;
  return typeof uri === 'string' ? (new URL(uri).searchParams.get('response_code') ?? undefined) : undefined;
};

/** Poll `probe` until it returns a value other than undefined, at most `timeoutMs` and `maxTries` times. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, { timeoutMs, intervalMs = 50, maxTries = 400 }: { timeoutMs: number; intervalMs?: number; maxTries?: number }): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < maxTries && Date.now() < deadline; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return undefined;
}

/** Counts of the handle kinds that would keep a process alive: sockets, servers, child processes, timers. */
export function activeHandleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (['TCPSocketWrap', 'TCPServerWrap', 'ProcessWrap', 'Timeout'].includes(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Handle kinds that are above the baseline after waiting (bounded) for closes to settle; {} when none. */
export async function leakedHandles(baseline: Record<string, number>, timeoutMs = 5_000): Promise<Record<string, number>> {
  const excess = () => {
    const now = activeHandleCounts();
    return Object.fromEntries(Object.entries(now).filter(([kind, n]) => n > (baseline[kind] ?? 0)).map(([kind, n]) => [kind, n - (baseline[kind] ?? 0)]));
  };
  const settled = await pollUntil(async () => (Object.keys(excess()).length === 0 ? {} : undefined), { timeoutMs, intervalMs: 100 });
  return settled ?? excess();
}
