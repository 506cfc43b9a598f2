// Koa 3 host app: the authorizer under /authz, CORS in front of it, your own routes after it.
// Settings come from environment variables (docs/examples-configuration.md), checked before it listens.
import { createServer } from 'node:http';
import Koa from 'koa';
import { authorizerMiddleware, cors } from '@vp-authorizer/koa';
import { configFromEnv, exampleAuthorizer } from '../shared/config-from-env.mjs';

export async function startExample({ port, host, env = process.env } = {}) {
  const config = configFromEnv(env, { defaultPort: 3003 });
  const server = createServer();
  await new Promise((resolve) => server.listen(port ?? config.port, host ?? config.host, resolve));
  const origin = `http://${host ?? config.host}:${server.address().port}`;
  const { authorizer, apiKey, close } = await exampleAuthorizer(config, { origin, mountPath: '/authz' });

  const app = new Koa();
  app.on('error', (error) => console.error('authorizer error:', error)); // unexpected failures land here
  // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN; browsers send the API key in Authorization.
  app.use(cors({ ...config.cors, allowHeaders: ['Authorization'] }));
  app.use(authorizerMiddleware(authorizer, { prefix: '/authz' }));
  app.use((ctx) => void (ctx.path === '/' && (ctx.body = 'Your app. The authorizer lives under /authz.\n')));
  server.on('request', app.callback());
  return { origin, apiKey, config, close: async () => (await close(), await new Promise((r) => server.close(r))) };
}
