// `@vp-authorizer/core/http`: what adapters need to serve an authorizer from any framework.
export type { CoreHandler, CoreRequest, CoreRequestBody, CoreResponse, CoreResponseStream, HandleOptions, RequestHeaders } from '../wire/core-request.js';
export { failureResponse } from './request-handler.js';
export { serve, pathBelowMount, pathBelowSegments, type BridgedRequest, type Served } from './serve.js';
export { fromFetchRequest, toFetchResponse, type FetchMount } from './fetch-bridge.js';
export { fromNodeRequest, toNodeReadable, writeNodeHead, writeNodeResponse, writeNodeStream, type HostBody, type NodeMount, type NodeWriteOptions } from './node-bridge.js';
export { readBodyWithLimit, DEFAULT_BODY_LIMIT_BYTES, type BridgedCoreRequest, type StreamedBody } from './read-body.js';
export { errorResponse, jsonResponse, type ErrorAudience } from '../wire/responses.js';
export { resolveCorsSource, type CorsSource, type CorsConfigProvider } from '../cors/cors-source.js';
export { corsDecision, MAX_CORS_REQUEST_HEADERS_LENGTH, type CorsDecision, type CorsRequest } from '../cors/cors-decision.js';
export { appendVary } from '../cors/append-vary.js';
