export { createRpBackend, type RpBackendOptions } from './rp-backend.js';
export { rpBackendOptionsFromEnv } from './options-from-env.js';
