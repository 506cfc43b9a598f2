// The public API of @vp-authorizer/local, as published (its built declarations).
export * from '../../packages/local/dist/index.js';
