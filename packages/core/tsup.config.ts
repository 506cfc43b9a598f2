import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

// Two entries: the main API and `@vp-authorizer/core/formats` (the format registry).
export default defineConfig({ ...packageBuild, entry: { index: 'src/index.ts', 'formats/index': 'src/formats/index.ts' } });
