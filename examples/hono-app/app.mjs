// Hono 4 host app on Node: the authorizer sub-app under /authz, CORS in front of it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createAuthorizer, generateDevSigningKey } from '@vp-authorizer/core';
import { authorizerApp, cors, corsConfigFromEnv } from '@vp-authorizer/hono';
import { localValidator, localVerifier } from '@vp-authorizer/local';

export async function startExample({ port = 3002, host = '127.0.0.1', env = process.env } = {}) {
  const server = createServer();
  await new Promise((resolve) => server.listen(port, host, resolve));
  const origin = `http://${host}:${server.address().port}`;
  const apiKey = env.AUTHZ_API_KEY ?? randomBytes(18).toString('base64url');
  // Dev material: a generated signing chain; a throwaway issuer root trusts nobody until you set ISSUER_ROOT_PEM.
  const { signing, rootCertificatePem } = await generateDevSigningKey();
  const trusted = [env.ISSUER_ROOT_PEM ?? rootCertificatePem];
  const authorizer = createAuthorizer({
    publicBaseUrl: env.PUBLIC_BASE_URL ?? `${origin}/authz`,
    instances: [{ id: 'main', apiKeys: [apiKey], signing, validator: localValidator({ trustedIssuers: trusted }), verifier: localVerifier({ trustAnchors: trusted }) }],
  });

  const app = new Hono();
  app.get('/', (c) => c.text('Your app. The authorizer lives under /authz.\n'));
  // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN; browsers send the API key in Authorization.
  app.use('/authz/*', cors({ ...corsConfigFromEnv(env), allowHeaders: ['Authorization'] }));
  app.route('/authz', authorizerApp(authorizer));
  server.on('request', getRequestListener(app.fetch));
  return { origin, apiKey, close: async () => (await authorizer.close(), await new Promise((r) => server.close(r))) };
}
