// The public API of @vp-authorizer/core/http, as published (its built declarations).
export * from '../../../packages/core/dist/http.js';
