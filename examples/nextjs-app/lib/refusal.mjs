import { isAuthorizerError } from '@vp-authorizer/core';

/**
 * A typed method's refusal (an unknown or reused response code, a bad create body) as the 4xx and
 * stable code the HTTP API gives; anything else is rethrown to Next's error handling (a 500).
 * @param {unknown} error
 */
export function refusal(error) {
  if (!isAuthorizerError(error)) throw error;
  return Response.json({ type: error.code, detail: error.message, ...(error.errors ? { errors: error.errors } : {}) }, { status: error.status });
}
