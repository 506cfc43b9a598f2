import type { Code } from './error-codes.js';

/**
 * A store throws this from `create` when the instance the record belongs to holds all the store
 * allows it (the memory store's per-instance quota; any store may do the same). Nothing was
 * written. The HTTP layer answers 429 with Retry-After: the instance's own volume, not a fault
 * of the server, and other instances are unaffected.
 */
export class StoreQuotaExceededError extends Error {
  override readonly name = 'StoreQuotaExceededError';
  readonly code = 'store.quota_exceeded' satisfies Code;
  /** When a retry may succeed: until the instance's oldest record leaves the store (at least 1). */
  readonly retryAfterSeconds: number;

  constructor(message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds ?? 1));
  }
}

export function isStoreQuotaExceededError(value: unknown): value is StoreQuotaExceededError {
  return value instanceof Error && (value as { code?: unknown }).code === 'store.quota_exceeded';
}
