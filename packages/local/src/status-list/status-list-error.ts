import type { PolicyCode } from '@vp-authorizer/core';

/** The status could not be determined; becomes a `status.*` result error, never a throw. */
export class StatusListError extends Error {
  override readonly name = 'StatusListError';
  constructor(
    readonly code: Extract<PolicyCode, 'status.unavailable' | 'status.unsupported'>,
    message: string,
  ) {
    super(message);
  }
}
