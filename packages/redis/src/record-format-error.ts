import type { Code } from '@vp-authorizer/core';

/**
 * A stored value this version cannot read: written by a newer `@vp-authorizer/redis` (format
 * version above what we know) or not written by vp-authorizer at all. Not retryable.
 */
export class RecordFormatError extends Error {
  override readonly name = 'RecordFormatError';
  readonly code = 'store.record_format' satisfies Code;
  /** The `v` field found, when there was one. */
  readonly formatVersion: number | undefined;

  constructor(message: string, formatVersion?: number) {
    super(message);
    this.formatVersion = formatVersion;
  }
}
