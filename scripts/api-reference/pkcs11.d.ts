// The public API of @vp-authorizer/pkcs11, as published (its built declarations).
export * from '../../packages/pkcs11/dist/index.js';
