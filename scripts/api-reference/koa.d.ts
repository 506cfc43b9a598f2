// The public API of @vp-authorizer/koa, as published (its built declarations).
export * from '../../packages/koa/dist/index.js';
