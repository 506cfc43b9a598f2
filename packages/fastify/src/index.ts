export { authorizerPlugin, type AuthorizerPluginOptions } from './authorizer-plugin.js';
export { AuthorizerFailure } from './authorizer-failure.js';
export { cors } from './cors.js';
// The documented helper for app-level CORS from EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN.
export { corsConfigFromEnv } from '@vp-authorizer/core';
