import { AuthorizerError } from '../errors/authorizer-error.js';
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
  return jsonText(error.status, JSON.stringify(errorBody(error, audience)), headers);
}

/** The one shape of an error body per audience. */
function errorBody(error: AuthorizerError, audience: ErrorAudience): object {
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
