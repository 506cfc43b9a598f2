export * from './logging-map-store.js';
