export * from './verifier/index.js';
export * from './validator/index.js';
