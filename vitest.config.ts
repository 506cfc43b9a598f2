import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests run against the TypeScript sources; the built dist is checked by publint and the examples.
export default defineConfig({
  resolve: {
    alias: {
      // Before '@vp-authorizer/core': aliases match by prefix, in order.
      '@vp-authorizer/core/formats': fileURLToPath(new URL('./packages/core/src/formats/index.ts', import.meta.url)),
      '@vp-authorizer/core': pkg('core'),
      '@vp-authorizer/express': pkg('express'),
      '@vp-authorizer/hono': pkg('hono'),
      '@vp-authorizer/koa': pkg('koa'),
      '@vp-authorizer/redis': pkg('redis'),
      '@vp-authorizer/local': pkg('local'),
      '@vp-authorizer/testing': pkg('testing'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
