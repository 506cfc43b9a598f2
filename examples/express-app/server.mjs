#!/usr/bin/env node
// `pnpm --filter @vp-authorizer/example-express-app start` (build the packages first: pnpm build).
import { startExample } from './app.mjs';

const { origin, apiKey, close } = await startExample({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' });
console.log(`Express example on ${origin}  —  authorizer: ${origin}/authz  —  API key: ${apiKey}
  curl -i ${origin}/authz/health
  CORS: EXPRESS_CORS_ENABLED=${process.env.EXPRESS_CORS_ENABLED ?? '(unset: off)'} EXPRESS_CORS_ORIGIN=${process.env.EXPRESS_CORS_ORIGIN ?? '(unset: *)'}`);
process.on('SIGINT', () => void close().then(() => process.exit(0)));
