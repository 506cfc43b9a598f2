import { AuthorizerError } from '../errors/authorizer-error.js';
import { CODES, type ErrorCode } from '../errors/error-codes.js';
import type { Refusal } from '../errors/refusal.js';
import { isStoreUnavailableError } from '../errors/store-unavailable-error.js';
import { isStoreQuotaExceededError } from '../errors/store-quota-exceeded-error.js';
import type { CoreResponse } from './core-request.js';

const JSON_HEADERS: [string, string][] = [
  ['content-type', 'application/json; charset=utf-8'],
  // Every answer carries per-authorization state or secrets: never cache.
  ['cache-control', 'no-store'],
];

export function jsonResponse(status: number, body: unknown, extraHeaders: [string, string][] = []): CoreResponse {
  return jsonText(status, JSON.stringify(body), extraHeaders);
}

/** A JSON answer whose text is already serialised. */
export const jsonTextResponse = (status: number, body: string): CoreResponse => jsonText(status, body, []);

function jsonText(status: number, body: string, extraHeaders: [string, string][]): CoreResponse {
  // A fresh array per answer (serve() may append to it); a literal when nothing is added, which
  // V8 builds without running the iteration of a spread.
  const headers = extraHeaders.length === 0 ? [JSON_HEADERS[0]!, JSON_HEADERS[1]!] : [...JSON_HEADERS, ...extraHeaders];
  return { status, headers, body };
}

export function emptyResponse(status: number): CoreResponse {
  return { status, headers: [['cache-control', 'no-store']] };
}

export type ErrorAudience = 'rp' | 'wallet';

/**
 * Render any error for an audience. Known errors keep their code and status; a store outage is
 * 503 + Retry-After, an instance over its store quota 429 + Retry-After; anything else is a 500
 * that reveals nothing (the caller reports it).
 */
export function errorResponse(error: unknown, audience: ErrorAudience): CoreResponse {
  if (isStoreUnavailableError(error)) {
    const retry = String((error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 1);
    return renderError(new AuthorizerError('store.unavailable'), audience, [['retry-after', retry]]);
  }
  // A store's error class (an AuthorizerError with the same code is rendered as one, below).
  if (isStoreQuotaExceededError(error) && !(error instanceof AuthorizerError)) {
    // The store's message may name the instance and its numbers: the answer keeps to the table's.
    return renderError(new AuthorizerError('store.quota_exceeded'), audience, [['retry-after', String(retryAfterOf(error))]]);
  }
  if (error instanceof AuthorizerError) {
    const { allow, retryAfterSeconds } = error as { allow?: string[]; retryAfterSeconds?: number };
    const headers: [string, string][] = [];
    if (allow) headers.push(['allow', allow.join(', ')]);
    if (retryAfterSeconds !== undefined) headers.push(['retry-after', String(retryAfterSeconds)]);
    return renderError(error, audience, headers);
  }
  return renderError(new AuthorizerError('server.internal_error'), audience);
}

function renderError(error: AuthorizerError, audience: ErrorAudience, headers: [string, string][] = []): CoreResponse {
  return jsonText(error.status, errorBodyText(error, audience), headers);
}

/**
 * Bodies of errors that carry nothing of their own (the code's default message, no action, no
 * field errors) are the same text every time: built once per code and audience, a bounded set.
 */
// One map per audience, keyed by the code itself: no key string is built per refusal.
const RP_BODIES = new Map<string, string>();
const WALLET_BODIES = new Map<string, string>();

function errorBodyText(error: AuthorizerError, audience: ErrorAudience): string {
  const plain = error.action === undefined && !error.errors?.length && error.message === CODES[error.code].message;
  return plain ? defaultBodyText(error.code, audience) : JSON.stringify(errorBody(error, audience));
}

/** The body of `new AuthorizerError(code)` (no options) for an audience, as errorBody renders it. */
function defaultBodyText(code: ErrorCode, audience: ErrorAudience): string {
  // Anything but 'wallet' renders the relying-party body, as errorBody does.
  const bodies = audience === 'wallet' ? WALLET_BODIES : RP_BODIES;
  let text = bodies.get(code);
  if (text === undefined) {
    const { status, oauth, message } = CODES[code];
    bodies.set(code, (text = JSON.stringify(errorBody({ code, message, status, oauthError: oauth, action: undefined, errors: undefined }, audience))));
  }
  return text;
}

/** The answer to a returned refusal: what `errorResponse(new AuthorizerError(code), audience)` answers. */
export function refusalResponse(refusal: Refusal, audience: ErrorAudience): CoreResponse {
  return jsonText(CODES[refusal.refused].status, defaultBodyText(refusal.refused, audience), []);
}

/** The one shape of an error body per audience (thrown errors and returned refusals alike). */
function errorBody(error: Pick<AuthorizerError, 'code' | 'message' | 'status' | 'oauthError' | 'action' | 'errors'>, audience: ErrorAudience): object {
  if (audience === 'wallet') return { error: error.oauthError, error_description: error.message };
  return {
    type: error.code,
    message: error.message,
    ...(error.action ? { action: error.action } : {}),
    status: error.status,
    ...(error.errors?.length ? { errors: error.errors } : {}),
  };
}

/** True when an error is one we answer on purpose (not a bug to hand to the host's error path). */
export function isExpectedError(error: unknown): boolean {
  return error instanceof AuthorizerError ? error.code !== 'server.internal_error' : isStoreUnavailableError(error) || isStoreQuotaExceededError(error);
}

/** A store's Retry-After in whole seconds, at least 1 (a custom store may give anything). */
function retryAfterOf(error: { retryAfterSeconds?: unknown }): number {
  const seconds = error.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 1;
}
