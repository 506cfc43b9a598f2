import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

export default defineConfig({
  ...packageBuild,
  // The public API and the `vp-authorizer-server` command (bin).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  // One chunk for what both entries share, so the command and the API agree on error classes.
  splitting: true,
});
