import * as v from 'valibot';
import { defineEndpoint, type Endpoint } from './endpoint.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

/**
 * `GET /openapi.json`: the document of the table it belongs to, with the configured public base
 * URL as its server. The same for every caller and every request, so caches may keep it.
 */
export function openApiEndpoint(table: () => readonly Endpoint[]) {
  let document: OpenApiDocument | undefined;
  return defineEndpoint({
    operationId: 'getOpenApiDocument',
    name: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    audience: 'public',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document, with the public base URL as server.', contentType: 'application/json', schema: v.record(v.string(), v.unknown()) } },
    run: async ({ ctx }) => {
      document ??= buildOpenApiDocument(table());
      return {
        status: 200,
        headers: [
          ['content-type', 'application/json; charset=utf-8'],
          ['cache-control', 'public, max-age=3600'],
        ],
        body: JSON.stringify({ ...document, servers: [{ url: ctx.publicBaseUrl }] }),
      };
    },
  });
}
