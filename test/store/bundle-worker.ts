import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BundledWorker {
  /** A CommonJS file to run with `node` / child_process.fork. */
  file: string;
  dispose(): Promise<void>;
}

/**
 * Plain `node` cannot run our TypeScript sources (Node 20, no tsx), so child-process workers
 * are bundled from the current sources, never from a possibly stale dist: one CommonJS file
 * with everything inlined (ioredis included), in a temporary directory. About a second.
 */
export async function bundleWorker(entry: string): Promise<BundledWorker> {
  const outDir = await mkdtemp(join(tmpdir(), 'vpa-worker-'));
  const name = basename(entry).replace(/\.ts$/, '');
  const { build } = await import('tsup');
  await build({
    entry: { [name]: join(root, entry) },
    outDir,
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
    silent: true,
    config: false,
    outExtension: () => ({ js: '.cjs' }),
    esbuildOptions(options) {
      // The packages' own `exports` point at dist; bundle the sources instead.
      options.alias = {
        '@vp-authorizer/core': join(root, 'packages/core/src/index.ts'),
        '@vp-authorizer/redis': join(root, 'packages/redis/src/index.ts'),
      };
    },
  });
  return { file: join(outDir, `${name}.cjs`), dispose: () => rm(outDir, { recursive: true, force: true }) };
}
