// The public API of @vp-authorizer/fastify, as published (its built declarations).
export * from '../../packages/fastify/dist/index.js';
