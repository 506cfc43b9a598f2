import * as v from 'valibot';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { defineEndpoint, type Endpoint } from './endpoint.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

/**
 * `GET /openapi.json`: the document of the table it belongs to, with the configured public base
 * URL as its server. The same for every caller and every request, so caches may keep it.
 */
export function openApiEndpoint(table: () => readonly Endpoint[]) {
  let document: OpenApiDocument | undefined;
  // Serialised once per authorizer: the route is public and the text (tens of KB) never changes.
  const texts = new WeakMap<AuthorizerContext, string>();
  return defineEndpoint({
    operationId: 'getOpenApiDocument',
    name: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    audience: 'public',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document, with the public base URL as server.', contentType: 'application/json', schema: v.record(v.string(), v.unknown()) } },
    run: async ({ ctx }) => {
      let text = texts.get(ctx);
      if (text === undefined) {
        document ??= buildOpenApiDocument(table());
        text = JSON.stringify({ ...document, servers: [{ url: ctx.publicBaseUrl }] });
        texts.set(ctx, text);
      }
      return {
        status: 200,
        headers: [
          ['content-type', 'application/json; charset=utf-8'],
          ['cache-control', 'public, max-age=3600'],
        ],
        body: text,
      };
    },
  });
}
