export type DidErrorCode = 'did.invalid' | 'did.method_disabled' | 'did.method_unsupported' | 'did.needs_remote_resolver' | 'did.resolution_failed' | 'did.key_not_found';

/** A DID could not be turned into a verification key; `message` is safe to show (no key material). */
export class DidResolutionError extends Error {
  override readonly name = 'DidResolutionError';
  constructor(
    readonly code: DidErrorCode,
    message: string,
  ) {
    super(message);
  }
}
