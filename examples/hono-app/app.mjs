// Hono 4 host app on Node: the authorizer sub-app under /authz, CORS in front of it.
// Settings come from environment variables (docs/examples-configuration.md), checked before it listens.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { authorizerApp, cors } from '@vp-authorizer/hono';
import { configFromEnv, exampleAuthorizer } from '../shared/config-from-env.mjs';

export async function startExample({ port, host, env = process.env } = {}) {
  const config = configFromEnv(env, { defaultPort: 3002 });
  const server = createServer();
  await new Promise((resolve) => server.listen(port ?? config.port, host ?? config.host, resolve));
  const origin = `http://${host ?? config.host}:${server.address().port}`;
  const { authorizer, apiKey, close } = await exampleAuthorizer(config, { origin, mountPath: '/authz' });

  const app = new Hono();
  app.get('/', (c) => c.text('Your app. The authorizer lives under /authz.\n'));
  // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN; browsers send the API key in Authorization.
  app.use('/authz/*', cors({ ...config.cors, allowHeaders: ['Authorization'] }));
  app.route('/authz', authorizerApp(authorizer));
  server.on('request', getRequestListener(app.fetch));
  return { origin, apiKey, config, close: async () => (await close(), await new Promise((r) => server.close(r))) };
}
