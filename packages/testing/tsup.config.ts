import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

// One build for both entries (two configs would run in parallel and race on cleaning dist).
// `contracts` also comes out as CJS, but package.json exports it for `import` only: vitest
// refuses to be required.
export default defineConfig({ ...packageBuild, entry: { index: 'src/index.ts', contracts: 'src/contracts.ts', redis: 'src/redis.ts' } });
