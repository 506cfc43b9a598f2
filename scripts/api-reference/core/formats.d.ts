// The public API of @vp-authorizer/core/formats, as published (its built declarations).
export * from '../../../packages/core/dist/formats/index.js';
