import type { FastifyPluginCallback, RouteHandlerMethod } from 'fastify';
import type { CoreHandler, CorsSource } from '@vp-authorizer/core/http';
import { fromNodeRequest, pathBelowSegments, serve, writeNodeResponse } from '@vp-authorizer/core/http';
import { writeNodeResponseInOneHead } from '@vp-authorizer/core/internal';
import { AuthorizerFailure } from './authorizer-failure.js';
import { cors } from './cors.js';

const FASTIFY_EARLY_REFUSALS = new Set<unknown>(['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE']);

export interface AuthorizerPluginOptions {
  authorizer: CoreHandler;
  /** CORS for these routes: a `cors` object, or the authorizer to take its instances' `cors` from. */
  cors?: CorsSource;
}

/**
 * Serve every authorizer route under the plugin's prefix in a Fastify 5 app:
 * `app.register(authorizerPlugin, { prefix: '/authz', authorizer })`. Unexpected errors take
 * Fastify's error path (onError hooks) as an AuthorizerFailure, answered with the core's bare 500.
 */
export const authorizerPlugin: FastifyPluginCallback<AuthorizerPluginOptions> = (scope, options, done) => {
  // In this scope only: bodies stay in the stream, for the core to read with its own limit and
  // refuse in its own format, whatever parsers (and limits) the host set up.
  scope.removeAllContentTypeParsers();
  const leaveInStream = (_request: unknown, _payload: unknown, next: (error: null) => void) => next(null);
  scope.addContentTypeParser('*', leaveInStream);
  // The same parser under the media types the routes take: Fastify finds those in its cache, where
  // a catch-all alone is looked for by parsing the Content-Type on every request.
  scope.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], leaveInStream);
  if (options.cors) scope.register(cors(options.cors));
  const depth = scope.prefix.split('/').filter(Boolean).length;
  const handler: RouteHandlerMethod = async (request, reply) => {
    const { response, failure } = await serve(options.authorizer, fromNodeRequest(request.raw, { path: pathBelowSegments(request.url, depth) }));
    if (failure) throw new AuthorizerFailure(response, failure.error);
    reply.hijack(); // the shared Node writer answers, byte for byte as under Express and Koa
    // As Fastify answers itself: the head in one writeHead call, the headers kept on the reply,
    // where hooks read them (reply.getHeaders() in onResponse).
    for (const [name, value] of response.headers) reply.header(name, value);
    if (response.body) reply.header('content-length', String(Buffer.byteLength(response.body)));
    writeNodeResponseInOneHead(reply.raw, response);
  };
  scope.setErrorHandler(async (error, request, reply) => {
    // Refusals Fastify makes before any content-type parser runs (a Content-Type that is not a
    // media type, QUERY without one): the body is still in the stream, so the core answers as if
    // the catch-all parser had run, in the format of the path's audience.
    if (FASTIFY_EARLY_REFUSALS.has((error as { code?: unknown }).code)) {
      try {
        return await handler.call(scope, request, reply);
      } catch (failure) {
        error = failure as typeof error;
      }
    }
    if (!(error instanceof AuthorizerFailure)) throw error; // not ours: the host's error handler
    request.log.error({ err: error.cause }, error.message);
    reply.hijack();
    writeNodeResponse(reply.raw, error.response);
  });
  scope.all('/', handler).all('/*', handler);
  done();
};
