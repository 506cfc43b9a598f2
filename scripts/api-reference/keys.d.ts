// The public API of @vp-authorizer/keys, as published (its built declarations).
export * from '../../packages/keys/dist/index.js';
