// The public API of @vp-authorizer/testing, as published (its built declarations).
export * from '../../packages/testing/dist/index.js';
