// `pnpm --filter @vp-authorizer/example-nestjs-app start` (build the packages first: pnpm build).
// Environment variables: docs/examples-configuration.md (PORT defaults to 3005).
import { describeConfig, startOrExit } from '../../shared/config-from-env.mjs';
import { startExample } from './app.js';

const { origin, apiKey, setup, close } = await startOrExit(() => startExample());
console.log(`NestJS example on ${origin}  —  authorizer: ${origin}${setup.mountPath}
${describeConfig(setup.config, { apiKey, publicBaseUrl: setup.config.publicBaseUrl ?? `${origin}${setup.mountPath}` })}
  curl -i -X POST ${origin}/verifications`);
const stop = () => void close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
