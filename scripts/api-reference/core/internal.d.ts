// @vp-authorizer/core/internal, as published (its built declarations): what @vp-authorizer/local
// builds on, with no stability promise outside the project's packages.
export * from '../../../packages/core/dist/internal.js';
