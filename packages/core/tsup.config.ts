import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

export default defineConfig({
  ...packageBuild,
  // Two entries: the public API and `@vp-authorizer/core/http` for adapters.
  entry: { index: 'src/index.ts', http: 'src/http/index.ts' },
  // Shared chunks under CJS too, so both entries see one AuthorizerError class (instanceof holds).
  splitting: true,
});
