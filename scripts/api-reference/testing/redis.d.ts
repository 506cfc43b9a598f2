// The public API of @vp-authorizer/testing/redis, as published (its built declarations).
export * from '../../../packages/testing/dist/redis.js';
