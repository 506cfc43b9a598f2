export * from './dev-signing-key.js';
