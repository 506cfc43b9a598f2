import { StoreUnavailableError } from '@vp-authorizer/core';

// node-postgres and its pool signal an unusable connection with these messages (no error classes).
const CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'ENOENT']);
// SQLSTATEs that mean "not now" rather than "wrong request". Authentication failures (28xxx) and
// missing tables (42P01) are absent on purpose: retrying will not fix a misconfiguration, so they
// stay unexpected errors (HTTP 500, logged).
const TRANSIENT_SQLSTATES = new Map([
  ['57014', 'statement timeout'],
  ['57P01', 'server shutting down'],
  ['57P02', 'server crashed'],
  ['57P03', 'server starting up'],
  ['55P03', 'lock not available'],
  ['40001', 'serialization failure'],
  ['40P01', 'deadlock'],
  ['25006', 'read-only server'],
]);
const TRANSIENT_CLASSES = new Map([
  ['08', 'connection failure'],
  ['53', 'insufficient resources'],
]);

/**
 * Connection-level and transient failures become StoreUnavailableError (HTTP 503 + Retry-After);
 * anything else (a bug, a missing table) is returned unchanged. The message names the kind of
 * failure only, never the statement or its values.
 */
export function toStoreError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof StoreUnavailableError) return error;
  const kind = unavailableKind(error);
  return kind === undefined ? error : new StoreUnavailableError(`PostgreSQL is unavailable (${kind}).`, { cause: error });
}

function unavailableKind(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code)) return code;
    if (/^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_SQLSTATES.get(code) ?? TRANSIENT_CLASSES.get(code.slice(0, 2));
  }
  const message = CONNECTION_MESSAGES.find((m) => error.message.startsWith(m));
  return message?.toLowerCase();
}
