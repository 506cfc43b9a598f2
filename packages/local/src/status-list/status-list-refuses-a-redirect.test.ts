import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundFetchPolicy } from '@vp-authorizer/core';
import { startStatusListServer, statusListToken, type StatusListServer } from '../__fixtures__/status-list-server.js';
import { createTestCa } from '@vp-authorizer/testing';
import { StatusListClient } from './status-list-client.js';

let server: StatusListServer;
beforeAll(async () => (server = await startStatusListServer()));
afterAll(() => server.close());

describe('status list redirects', () => {
  it('status list refuses a redirect, even to a valid list', async () => {
    const ca = await createTestCa();
    const signer = await ca.issue({ subject: 'CN=Status Issuer' });
    const uri = server.url('/lists/moved');
    // The target would verify (sub is the requested URI): only the redirect itself is refused.
    server.set('/lists/moved', { redirect: '/lists/target' });
    server.set('/lists/target', { token: await statusListToken(signer, { sub: uri, values: [0] }) });
    const client = new StatusListClient({ outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }), timeoutMs: 2_000, maxBytes: 100_000, trustAnchors: [ca.pem], clockSkewMs: 0 });
    await expect(client.status({ uri, idx: 0, now: Date.now(), allowedAlgs: ['ES256'], signal: new AbortController().signal })).rejects.toMatchObject({ code: 'status.unavailable', message: /redirect/ });
    expect(server.hits('/lists/moved')).toBe(1);
    expect(server.hits('/lists/target')).toBe(0);
  });
});
