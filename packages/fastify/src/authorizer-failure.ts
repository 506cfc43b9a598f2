import type { CoreResponse } from '@vp-authorizer/core/http';

/**
 * What reaches Fastify's error path (onError hooks) when the authorizer failed unexpectedly:
 * `cause` is the original error; `response` is the bare JSON 500 the plugin answers with.
 */
export class AuthorizerFailure extends Error {
  override readonly name = 'AuthorizerFailure';
  readonly statusCode = 500;

  constructor(readonly response: CoreResponse, cause: unknown) {
    super('Unexpected authorizer failure', { cause });
  }
}
