// The public API of @vp-authorizer/server, as published (its built declarations).
export * from '../../packages/server/dist/index.js';
