import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));
// Exact matches: a string alias also matches every subpath of its key (`@vp-authorizer/testing`
// would swallow `@vp-authorizer/testing/contracts`), so each specifier gets its own anchored regex.
const entry = (specifier: string, path: string) => ({
  find: new RegExp(`^${specifier.replace(/[/]/g, '\\/')}$`),
  replacement: source(path),
});

// Tests run against the TypeScript sources; the built dist is checked by publint and the examples.
export default defineConfig({
  resolve: {
    alias: [
      entry('@vp-authorizer/core', 'core/src/index.ts'),
      entry('@vp-authorizer/express', 'express/src/index.ts'),
      entry('@vp-authorizer/hono', 'hono/src/index.ts'),
      entry('@vp-authorizer/koa', 'koa/src/index.ts'),
      entry('@vp-authorizer/keys', 'keys/src/index.ts'),
      entry('@vp-authorizer/redis', 'redis/src/index.ts'),
      entry('@vp-authorizer/postgres', 'postgres/src/index.ts'),
      entry('@vp-authorizer/pkcs11', 'pkcs11/src/index.ts'),
      entry('@vp-authorizer/local', 'local/src/index.ts'),
      entry('@vp-authorizer/trust-lists', 'trust-lists/src/index.ts'),
      entry('@vp-authorizer/server', 'server/src/index.ts'),
      entry('@vp-authorizer/testing', 'testing/src/index.ts'),
      entry('@vp-authorizer/testing/contracts', 'testing/src/contracts.ts'),
      entry('@vp-authorizer/testing/redis', 'testing/src/redis.ts'),
      entry('@vp-authorizer/core/http', 'core/src/http/index.ts'),
      entry('@vp-authorizer/core/formats', 'core/src/formats/index.ts'),
      entry('@vp-authorizer/core/internal', 'core/src/internal.ts'),
      entry('@vp-authorizer/fastify', 'fastify/src/index.ts'),
      entry('@vp-authorizer/opentelemetry', 'opentelemetry/src/index.ts'),
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
