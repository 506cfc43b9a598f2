// authorizer.fetch of an authorizer built from the settings answers under the mount path the
// adapters use (a Next.js catch-all route handler forwards the whole request to it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizerFromConfig, configFromEnv, type ConfiguredAuthorizer } from '@vp-authorizer/server';

let configured: ConfiguredAuthorizer;
beforeAll(async () => {
  configured = await authorizerFromConfig(configFromEnv({ AUTHZ_API_KEY: 'fetch-mount-key-1' }, { defaultPort: 3000 }), { origin: 'http://127.0.0.1:3000', mountPath: '/authz' });
});
afterAll(async () => configured?.close());

it('routes /authz/… and refuses what lies outside /authz', async () => {
  expect((await configured.authorizer.fetch(new Request('http://127.0.0.1:3000/authz/health'))).status).toBe(204);
  const status = await configured.authorizer.fetch(new Request('http://127.0.0.1:3000/authz/openid4/vp/v1_0/authorizations/none/status', { headers: { authorization: 'Bearer fetch-mount-key-1' } }));
  expect(status.status).toBe(404);
  expect(((await status.json()) as { type: string }).type).toBe('authorization.not_found');
  expect((await configured.authorizer.fetch(new Request('http://127.0.0.1:3000/health'))).status).toBe(404);
});
