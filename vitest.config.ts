import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));
const pkg = (name: string) => ({ find: new RegExp(`^@vp-authorizer/${name}$`), replacement: src(`${name}/src/index.ts`) });

// Tests run against the TypeScript sources; the built dist is checked by publint and the examples.
// Exact-match entries: a string key would also match as a prefix ('@vp-authorizer/core/http').
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@vp-authorizer\/core\/http$/, replacement: src('core/src/http/index.ts') },
      { find: /^@vp-authorizer\/core\/formats$/, replacement: src('core/src/formats/index.ts') },
      ...['core', 'express', 'hono', 'koa', 'fastify', 'redis', 'local', 'testing'].map(pkg),
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
