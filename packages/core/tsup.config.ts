import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base';

// Two entries: the main API and `@vp-authorizer/core/formats` (the format registry).
// Splitting for CJS too, so both entries share one copy of the format code (one CborBudget class).
export default defineConfig({ ...packageBuild, entry: { index: 'src/index.ts', 'formats/index': 'src/formats/index.ts' }, splitting: true });
