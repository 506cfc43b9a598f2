// The public API of @vp-authorizer/postgres, as published (its built declarations).
export * from '../../packages/postgres/dist/index.js';
