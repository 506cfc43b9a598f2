// The contract suites (HTTP, store, CORS): they call vitest's describe/it at import, so this entry
// is ESM-only and needs vitest. It also re-exports the helpers a suite is driven with, so a
// contract test imports from one place.
export * from './store-contract/index.js';
export * from './http-contract/index.js';
export * from './cors-contract/index.js';
