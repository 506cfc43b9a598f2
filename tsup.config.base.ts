import type { Options } from 'tsup';

// `npm run demo` builds JavaScript only (VP_AUTHORIZER_BUILD=js): declarations take over ten times
// longer to emit and nothing it runs reads them. Such a build keeps the declarations already there.
const jsOnly = process.env.VP_AUTHORIZER_BUILD === 'js';

/** Every package builds the same way: ESM + CJS with declarations, for Node 20. */
export const packageBuild: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: !jsOnly,
  clean: !jsOnly,
  sourcemap: true,
  target: 'node20',
};
