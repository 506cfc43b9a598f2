import type { Options } from 'tsup';

/** Every package builds the same way: ESM + CJS with declarations, for Node 20. */
export const packageBuild: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
};
