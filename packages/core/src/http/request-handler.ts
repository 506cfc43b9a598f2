import type { ResolvedInstanceOptions } from '../config/authorizer-options.js';
import { ApiKeyTable } from '../crypto/api-key-table.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { Refusal } from '../errors/refusal.js';
import { describeError } from '../events/logger.js';
import type { RequestSpan } from '../events/instrumentation.js';
import { endpointInput } from '../endpoints/endpoint-input.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import type { CoreRequest, CoreResponse, HandleOptions } from '../wire/core-request.js';
import { errorResponse, isExpectedError, refusalResponse } from '../wire/responses.js';
import { answerTo, audienceOfPath, matchRoute } from './routes.js';

type ErrorHook = HandleOptions['onError'];

/** Request → response for one authorizer, and who hears about the unexpected errors on the way. */
export interface RequestHandler {
  /** Route, authenticate, validate, run and render one request. Never throws. */
  handle(request: CoreRequest, options?: HandleOptions): Promise<CoreResponse>;
  /** Hand an unexpected error to the configured `onError`, and to `hook` unless it is the same function; each once. */
  report(error: unknown, hook?: ErrorHook): void;
  /** `hook` unless it is the configured `onError` (which report() calls anyway). */
  perCall(hook: ErrorHook): ErrorHook;
}

/**
 * The handler every request goes through, whatever delivered it (serve() and the adapters,
 * fetch(), a direct handle() call). It owns what every answer shares: the route (and HEAD: see
 * matchRoute and answerTo), the relying party's API key, the error format of the path's audience,
 * the log line and span of each request, and the reporting of unexpected errors to `onError`.
 */
export function createRequestHandler(ctx: AuthorizerContext, instances: readonly ResolvedInstanceOptions[], onError: ErrorHook): RequestHandler {
  const { log, instrumentation } = ctx;
  // Every key of every instance, compared in constant time on each request.
  const apiKeys = new ApiKeyTable(instances.map((instance) => [ctx.instances.get(instance.id)!, instance.apiKeys] as const));
  function authenticate(request: CoreRequest): InstanceRuntime {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    if (!match) throw new AuthorizerError('auth.unauthorized');
    const found = apiKeys.ownerOf(match[1]!);
    if (!found) throw new AuthorizerError('auth.unauthorized');
    return found;
  }

  /**
   * The one place that decides who hears an unexpected error: the configured `onError`, and a
   * per-call one (an adapter's or fetch()'s caller's) unless it is the same function. Each once.
   */
  const perCall = (hook: ErrorHook) => (hook !== onError ? hook : undefined);
  function report(error: unknown, hook?: ErrorHook): void {
    for (const reporter of [onError, perCall(hook)]) {
      try {
        reporter?.(error);
      } catch {
        // A host's reporter failing must not turn into an unanswered request.
      }
    }
  }

  async function handleRequest(request: CoreRequest, handleOptions: HandleOptions = {}, span?: RequestSpan): Promise<CoreResponse> {
    // Read only for the log line that reports it.
    const started = log['request.handled'] ? ctx.clock.now() : 0;
    let routeName = 'unmatched';
    try {
      const { route, params } = matchRoute(request.method, request.path);
      routeName = route.name;
      span?.route({ operationId: route.operationId, path: route.path });
      const instance = route.audience === 'rp' ? authenticate(request) : undefined;
      if (instance) span?.setAttributes({ 'vp.instance_id': instance.id });
      const input = endpointInput(route, { ctx, request, params, instance: instance!, body: undefined });
      const answer = route.runOrRefuse ? await route.runOrRefuse(input) : await route.run(input);
      const refused = answer instanceof Refusal;
      const response = answerTo(request.method, refused ? refusalResponse(answer, audienceOfPath(request.path)) : answer);
      if (refused) {
        // Logged and traced as a thrown refusal is, below.
        log['request.refused']?.({ route: routeName, status: response.status, code: answer.refused });
        span?.answered(response.status, answer.refused);
        return response;
      }
      log['request.handled']?.({ route: routeName, status: response.status, durationMs: ctx.clock.now() - started });
      span?.answered(response.status);
      return response;
    } catch (error) {
      const response = failureResponse(error, request);
      const expected = isExpectedError(error);
      if (expected) {
        log['request.refused']?.({ route: routeName, status: response.status, code: (error as { code?: string }).code });
      } else {
        log['request.failed']?.({ route: routeName, err: describeError(error) });
        report(error, handleOptions.onError);
      }
      span?.answered(response.status, expected ? (error as { code?: string }).code : 'server.internal_error');
      return response;
    }
  }

  // Without instrumentation, handle is handleRequest itself: nothing is added to the request path.
  const handle = !instrumentation
    ? handleRequest
    : (request: CoreRequest, handleOptions?: HandleOptions): Promise<CoreResponse> =>
        instrumentation.request({ method: request.method, header: (name) => request.headers.get(name) }, (span) => handleRequest(request, handleOptions, span));
  return { handle, report, perCall };
}

/**
 * The answer to a failed request: known errors keep their code and status, anything else is a 500
 * that reveals nothing. Wallet paths answer OAuth-style (decided on the path below the mount, so
 * also before or without a route match); no body for HEAD (RFC 9110 §9.3.2). serve() answers the
 * failures before the handler (an oversized body, a broken read) with it too.
 */
export function failureResponse(error: unknown, request: { method: string; path: string }): CoreResponse {
  return answerTo(request.method, errorResponse(error, audienceOfPath(request.path)));
}
