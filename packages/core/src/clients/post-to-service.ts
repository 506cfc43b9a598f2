import * as v from 'valibot';
import { anySignal, delay } from './any-signal.js';
import type { ResolvedHttpServiceOptions } from './http-service-options.js';
import type { PolicyError, PolicyResult } from '../model/policy-result.js';
import { ServiceCallError, type ServiceCallErrorCode } from './service-call-error.js';
import { invalidResponseSchema, okResponseSchema, problemDetailsSchema } from './service-wire-schema.js';

export type ServiceOutcome =
  /** 200: the service's results, passed through. */
  | { kind: 'ok'; results: PolicyResult[] }
  /** 422: the service judged the input invalid. */
  | { kind: 'invalid'; results: PolicyResult[]; problem: Omit<PolicyError, 'external'> | undefined };

type ServiceName = 'validator' | 'verifier';

const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const MAX_PROBLEM_BYTES = 64 * 1024;
/** A 429 is retried only when the service asks for at most this long a pause. */
const MAX_RETRY_AFTER_MS = 2_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 1_000;
const RETRYABLE_STATUS = new Set([502, 503, 504]);

class DeadlineReached extends Error {}

/** Exponential backoff with jitter: ~100, ~200, ~400 ms …, capped. */
const backoff = (attempt: number): number => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);

/** Retry-After in ms (delta-seconds or HTTP-date), or undefined when absent / unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Reads at most `limit` bytes of body as UTF-8; undefined when it is larger or not UTF-8. */
async function readText(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return declared > limit ? undefined : '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return undefined;
  }
}

function parseJson(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Problem details from an error answer, best effort (also the reference API's `{message}` form). */
async function readProblem(response: Response): Promise<Omit<PolicyError, 'external'> | undefined> {
  const json = parseJson(await readText(response, MAX_PROBLEM_BYTES));
  if (!json.ok) return undefined;
  const problem = v.safeParse(problemDetailsSchema, json.value);
  if (problem.success) return problem.output;
  const message = (json.value as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? { type: 'about:blank', status: response.status, detail: message.slice(0, 1024) } : undefined;
}

/**
 * POST a JSON body to `baseUrl + endpoint` and read the documented answer (docs/service-wire-format.md).
 * Retries only what is safe to repeat: a network failure before any response, 502/503/504, and
 * 429 whose Retry-After fits MAX_RETRY_AFTER_MS, with jittered backoff, never past the deadline.
 * 200 and 422 are outcomes; everything else throws ServiceCallError. The caller's abort rethrows
 * the caller's reason; the deadline throws `service.timeout`. Redirects are not followed (the
 * headers may carry credentials meant for this service only).
 */
export async function postToService(options: ResolvedHttpServiceOptions, endpoint: string, body: unknown, service: ServiceName, callerSignal: AbortSignal): Promise<ServiceOutcome> {
  callerSignal.throwIfAborted();
  const where = `${service} ${endpoint}`;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineReached()), options.timeoutMs);
  const signal = anySignal([callerSignal, deadline.signal]);
  const startedAt = Date.now();
  const payload = JSON.stringify(body);
  let attempts = 0;
  const fail = (code: ServiceCallErrorCode, message: string, extra: { status?: number; external?: Omit<PolicyError, 'external'>; cause?: unknown } = {}) =>
    new ServiceCallError(code, `${where}: ${message}`, { service, attempts, ...extra });

  try {
    let wait = 0;
    let lastFailure: ServiceCallError | undefined;
    for (;;) {
      if (lastFailure) {
        if (attempts > options.retries || wait >= options.timeoutMs - (Date.now() - startedAt)) throw lastFailure;
        await delay(wait, signal);
      }
      attempts++;
      let response: Response;
      try {
        response = await options.fetch(`${options.baseUrl}${endpoint}`, {
          method: 'POST',
          headers: { ...options.headers, 'content-type': 'application/json', accept: 'application/json' },
          body: payload,
          signal,
          // A 3xx is answered as `unexpected HTTP 3xx`; following it could leak the headers elsewhere.
          redirect: 'manual',
        });
      } catch (cause) {
        if (signal.aborted) throw cause;
        lastFailure = fail('service.unavailable', 'the request failed before any response', { cause });
        wait = backoff(attempts);
        continue;
      }

      const { status } = response;
      if (status === 200 || status === 422) {
        const json = parseJson(await readText(response, MAX_RESPONSE_BYTES));
        if (!json.ok) throw fail('service.bad_response', `HTTP ${status} with a body that is not JSON (or larger than ${MAX_RESPONSE_BYTES} bytes)`, { status });
        if (status === 200) {
          const parsed = v.safeParse(okResponseSchema, json.value);
          if (!parsed.success) throw fail('service.bad_response', `HTTP 200 body does not match the wire format (at ${v.getDotPath(parsed.issues[0]) ?? 'the root'})`, { status });
          return { kind: 'ok', results: parsed.output.results };
        }
        const parsed = v.safeParse(invalidResponseSchema, json.value);
        if (!parsed.success) throw fail('service.bad_response', `HTTP 422 body does not match the wire format (at ${v.getDotPath(parsed.issues[0]) ?? 'the root'})`, { status });
        return { kind: 'invalid', results: parsed.output.results ?? [], problem: parsed.output.error };
      }

      const external = await readProblem(response);
      if (RETRYABLE_STATUS.has(status)) {
        lastFailure = fail('service.unavailable', `HTTP ${status}`, { status, ...(external ? { external } : {}) });
        wait = Math.min(retryAfterMs(response) ?? backoff(attempts), MAX_RETRY_AFTER_MS);
        continue;
      }
      if (status === 429) {
        const after = retryAfterMs(response);
        lastFailure = fail('service.unavailable', 'HTTP 429 (rate limited)', { status, ...(external ? { external } : {}) });
        if (after !== undefined && after > MAX_RETRY_AFTER_MS) throw lastFailure;
        wait = after ?? backoff(attempts);
        continue;
      }
      // Other 4xx mean our request or credentials are wrong; other 5xx mean the service failed.
      throw fail(status >= 500 ? 'service.unavailable' : 'service.bad_response', `unexpected HTTP ${status}`, { status, ...(external ? { external } : {}) });
    }
  } catch (error) {
    if (error instanceof ServiceCallError) throw error;
    if (callerSignal.aborted) throw callerSignal.reason;
    if (deadline.signal.aborted) throw fail('service.timeout', `no usable answer within ${options.timeoutMs} ms`);
    throw fail('service.unavailable', 'the response could not be read', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
