// The public API of @vp-authorizer/opentelemetry, as published (its built declarations).
export * from '../../packages/opentelemetry/dist/index.js';
