import { AuthorizerError } from './authorizer-error.js';

/**
 * A RequestSigner failed or did not answer within its identity's `timeoutMs`. Answered 503 with
 * Retry-After; nothing was stored or changed by the request. The signer's own error is the
 * `cause` (for the logs), never the message: it may come from a token or a cloud SDK.
 */
export class SignerUnavailableError extends AuthorizerError {
  readonly retryAfterSeconds = 1;
  constructor(reason: string, cause?: unknown) {
    super('signing.unavailable', { message: `The request-signing key is unavailable: ${reason}.`, ...(cause === undefined ? {} : { cause }) });
  }
}
