export * from './redis-store.js';
export * from './record-format-error.js';
