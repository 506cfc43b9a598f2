import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

export default defineConfig({
  ...packageBuild,
  // Entries: the public API, `@vp-authorizer/core/formats` (the format registry),
  // `@vp-authorizer/core/http` for adapters and `@vp-authorizer/core/internal` for @vp-authorizer/local.
  entry: { index: 'src/index.ts', 'formats/index': 'src/formats/index.ts', http: 'src/http/index.ts', internal: 'src/internal.ts' },
  // Shared chunks under CJS too, so every entry sees one class of each kind (instanceof holds).
  splitting: true,
});
