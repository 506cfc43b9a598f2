// The public API of @vp-authorizer/trust-lists, as published (its built declarations).
export * from '../../packages/trust-lists/dist/index.js';
