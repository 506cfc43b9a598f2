// The public API of @vp-authorizer/client, as published (its built declarations).
export * from '../../packages/client/dist/index.js';
