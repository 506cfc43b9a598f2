// The public API of @vp-authorizer/kms-aws, as published (its built declarations).
export * from '../../packages/kms-aws/dist/index.js';
