export * from './store-contract/index.js';
export * from './http-contract/index.js';
export * from './cors-contract/index.js';
export * from './wallet/index.js';
