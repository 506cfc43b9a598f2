// The public API of @vp-authorizer/hono, as published (its built declarations).
export * from '../../packages/hono/dist/index.js';
