// The public API of @vp-authorizer/redis, as published (its built declarations).
export * from '../../packages/redis/dist/index.js';
