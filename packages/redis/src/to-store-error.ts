import { StoreUnavailableError } from '@vp-authorizer/core';

// ioredis signals a connection it cannot use with these messages (no error classes for them).
const CONNECTION_MESSAGES = [
  'Connection is closed.',
  "Stream isn't writeable",
  'Command timed out',
  "Cluster isn't ready",
  'Failed to refresh slots cache',
  'None of startup nodes is available',
  // Cluster: MOVED/ASK/TRYAGAIN/CLUSTERDOWN kept bouncing during a resharding or failover.
  'Too many Cluster redirections',
  'Cluster is disconnected',
  'Node is disconnected',
];
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
const UNAVAILABLE_ERROR_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);
// Server replies that mean "not now" rather than "wrong command": loading, failover, cluster down, full.
// NOAUTH/WRONGPASS/NOPERM are deliberately absent: wrong credentials or ACLs are a misconfiguration
// that retrying will not fix, so they stay unexpected errors (HTTP 500, logged) instead of a 503.
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|OOM|NOREPLICAS|MISCONF)\b/;

/**
 * Connection-level failures become StoreUnavailableError (HTTP 503 + Retry-After); anything else
 * (a bug, a corrupt value) is returned unchanged. The message names the kind of failure only.
 */
export function toStoreError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof StoreUnavailableError) return error;
  const kind = unavailableKind(error);
  return kind === undefined ? error : new StoreUnavailableError(`Redis is unavailable (${kind}).`, { cause: error });
}

function unavailableKind(error: Error): string | undefined {
  if (UNAVAILABLE_ERROR_NAMES.has(error.name)) return error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return code;
  const message = CONNECTION_MESSAGES.find((m) => error.message.startsWith(m));
  if (message !== undefined) return message.replace(/\.$/, '').toLowerCase();
  const reply = error.name === 'ReplyError' ? TRANSIENT_REPLY.exec(error.message) : null;
  return reply?.[1];
}
