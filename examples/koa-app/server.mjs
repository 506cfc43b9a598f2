#!/usr/bin/env node
// `pnpm --filter @vp-authorizer/example-koa-app start` (build the packages first: pnpm build).
// Environment variables: docs/examples-configuration.md (PORT defaults to 3003).
import { describeConfig, startOrExit } from '../shared/config-from-env.mjs';
import { startExample } from './app.mjs';

const { origin, apiKey, config, close } = await startOrExit(() => startExample());
console.log(`Koa example on ${origin}  —  authorizer: ${origin}/authz
${describeConfig(config, { apiKey, publicBaseUrl: config.publicBaseUrl ?? `${origin}/authz` })}
  curl -i ${origin}/authz/health`);
const stop = () => void close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
