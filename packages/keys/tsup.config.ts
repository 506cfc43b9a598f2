import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

export default defineConfig({
  ...packageBuild,
  // Entries: the library (generateDevSigningKey) and the `vp-authorizer` command (bin).
  entry: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
});
