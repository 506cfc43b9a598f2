// The public API of @vp-authorizer/core, as published (its built declarations).
export * from '../../packages/core/dist/index.js';
