import { afterAll, beforeAll, expect, it } from 'vitest';
import { header, rawRequest } from '@vp-authorizer/testing';
import { startExample } from '../app.mjs';

let example: { origin: string; close(): Promise<void> };
beforeAll(async () => {
  example = await startExample({ port: 0, env: { EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: 'http://localhost:5173' } });
});
afterAll(async () => example?.close());

it('serves the authorizer under /authz next to the host routes', async () => {
  expect((await fetch(`${example.origin}/authz/health`)).status).toBe(204);
  expect(await (await fetch(`${example.origin}/`)).text()).toContain('Your app');
});

it('answers a CORS preflight from the configured origin', async () => {
  const res = await rawRequest(`${example.origin}/authz/openid4/vp/v1_0/authorizations`, {
    method: 'OPTIONS',
    headers: [['Origin', 'http://localhost:5173'], ['Access-Control-Request-Method', 'POST'], ['Access-Control-Request-Headers', 'authorization, content-type']],
  });
  expect(res.status).toBe(204);
  expect(header(res, 'access-control-allow-origin')).toBe('http://localhost:5173');
});
