import type { Code } from './error-codes.js';

/**
 * Stores throw this when their backing engine cannot be reached (connection refused, timeout).
 * The HTTP layer answers 503 with Retry-After; nothing already stored is lost.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store.unavailable' satisfies Code;
  readonly retryAfterSeconds: number;

  constructor(message = 'The store is unavailable.', options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }
}

export function isStoreUnavailableError(value: unknown): value is StoreUnavailableError {
  return value instanceof Error && (value as { code?: unknown }).code === 'store.unavailable';
}
