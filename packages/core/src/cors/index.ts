export * from './cors-decision.js';
export * from './append-vary.js';
export * from './resolve-cors-config.js';
export * from './cors-config-from-env.js';
export * from './cors-source.js';
