import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AuthorizerError } from '@vp-authorizer/core';

/**
 * The typed methods throw AuthorizerError for a refusal (an unknown or reused response code, a bad
 * create body): answer with its status and stable code, as the HTTP API does, instead of Nest's
 * default 500 for an unknown exception. Its message never carries secrets or payloads.
 */
@Catch(AuthorizerError)
export class AuthorizerErrorFilter implements ExceptionFilter<AuthorizerError> {
  catch(error: AuthorizerError, host: ArgumentsHost): void {
    // The Express platform's response (typed here by what is used, so no express types are needed).
    const res = host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>();
    res.status(error.status).json({ type: error.code, detail: error.message, ...(error.errors ? { errors: error.errors } : {}) });
  }
}
