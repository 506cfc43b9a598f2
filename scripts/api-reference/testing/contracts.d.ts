// The public API of @vp-authorizer/testing/contracts, as published (its built declarations).
export * from '../../../packages/testing/dist/contracts.js';
