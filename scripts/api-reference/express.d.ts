// The public API of @vp-authorizer/express, as published (its built declarations).
export * from '../../packages/express/dist/index.js';
