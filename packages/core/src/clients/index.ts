export {};
export { ServiceCallError, isServiceCallError, type ServiceCallErrorCode } from './service-call-error.js';
export type { HttpServiceClientOptions } from './http-service-options.js';
export { httpValidatorClient } from './http-validator-client.js';
export { httpVerifierClient } from './http-verifier-client.js';
export { resolveServiceClient } from './resolve-service-client.js';
export * from './pass-through-clients.js';
