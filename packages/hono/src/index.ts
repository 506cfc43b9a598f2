export { authorizerApp } from './authorizer-app.js';
export { cors } from './cors.js';
// The documented helper for app-level CORS from EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN.
export { corsConfigFromEnv } from '@vp-authorizer/core';
