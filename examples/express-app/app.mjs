// Express 5 host app: the authorizer under /authz, CORS in front of it, your own routes beside it.
// Settings come from environment variables (docs/examples-configuration.md), checked before it listens.
import { createServer } from 'node:http';
import express from 'express';
import { authorizerRouter, cors } from '@vp-authorizer/express';
import { configFromEnv, exampleAuthorizer } from '../shared/config-from-env.mjs';

export async function startExample({ port, host, env = process.env } = {}) {
  const config = configFromEnv(env, { defaultPort: 3001 });
  const server = createServer();
  await new Promise((resolve) => server.listen(port ?? config.port, host ?? config.host, resolve));
  const origin = `http://${host ?? config.host}:${server.address().port}`;
  const { authorizer, apiKey, close } = await exampleAuthorizer(config, { origin, mountPath: '/authz' });

  const app = express();
  app.get('/', (_req, res) => res.type('text').send('Your app. The authorizer lives under /authz.\n'));
  // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN; browsers send the API key in Authorization.
  app.use('/authz', cors({ ...config.cors, allowHeaders: ['Authorization'] }), authorizerRouter(authorizer));
  server.on('request', app);
  return { origin, apiKey, config, close: async () => (await close(), await new Promise((r) => server.close(r))) };
}
