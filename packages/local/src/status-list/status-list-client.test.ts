import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusListServer, statusListToken, type StatusListServer } from '../__fixtures__/status-list-server.js';
import { createTestCa, type IssuedCertificate, type TestCa } from '@vp-authorizer/testing';
import { outboundFetchPolicy } from '@vp-authorizer/core';
import { StatusListClient } from './status-list-client.js';

let ca: TestCa;
let signer: IssuedCertificate;
let server: StatusListServer;

beforeAll(async () => {
  ca = await createTestCa();
  signer = await ca.issue({ subject: 'CN=Status Issuer' });
  server = await startStatusListServer();
});
afterAll(() => server.close());

const client = (overrides: Partial<ConstructorParameters<typeof StatusListClient>[0]> = {}) =>
  // The fixture server is plain http on 127.0.0.1: only the test escape hatch reaches it.
  new StatusListClient({ outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }), timeoutMs: 2_000, maxBytes: 100_000, trustAnchors: [ca.pem], clockSkewMs: 0, ...overrides });
const lookup = (uri: string, idx: number) => ({ uri, idx, now: Date.now(), allowedAlgs: ['ES256'], signal: new AbortController().signal });

describe('StatusListClient', () => {
  it('fetches, verifies and reads a status; caches by exp', async () => {
    const uri = server.url('/lists/cache');
    server.set('/lists/cache', { token: await statusListToken(signer, { sub: uri, values: [0, 1, 2] }) });
    const c = client();
    expect(await c.status(lookup(uri, 0))).toBe(0);
    expect(await c.status(lookup(uri, 1))).toBe(1);
    expect(await c.status(lookup(uri, 2))).toBe(2);
    expect(server.hits('/lists/cache')).toBe(1);
  });

  it('rejects a token whose sub is another URI, a wrong typ, an untrusted signer and an expired token', async () => {
    const cases: [string, Parameters<typeof statusListToken>[1] | 'untrusted', RegExp][] = [
      ['/lists/sub', { sub: 'https://elsewhere.example/list', values: [0] }, /sub/],
      ['/lists/typ', { sub: '', values: [0], typ: 'JWT' }, /typ/],
      ['/lists/expired', { sub: '', values: [0], exp: Math.floor(Date.now() / 1000) - 60 }, /expired/],
      ['/lists/untrusted', 'untrusted', /not trusted/],
    ];
    for (const [path, options, message] of cases) {
      const uri = server.url(path);
      const token =
        options === 'untrusted'
          ? await statusListToken(await (await createTestCa('CN=Rogue')).issue({ subject: 'CN=Rogue Status' }), { sub: uri, values: [0] })
          : await statusListToken(signer, { ...options, sub: options.sub || uri });
      server.set(path, { token });
      await expect(client().status(lookup(uri, 0))).rejects.toMatchObject({ code: 'status.unavailable', message: expect.stringMatching(message) });
    }
  });

  it('reports HTTP errors, oversized bodies and timeouts as status.unavailable', async () => {
    server.set('/lists/500', { status: 500 });
    server.set('/lists/big', { token: 'x'.repeat(5_000) });
    server.set('/lists/hang', { hang: true });
    await expect(client().status(lookup(server.url('/lists/500'), 0))).rejects.toMatchObject({ code: 'status.unavailable', message: /error status/ });
    await expect(client({ maxBytes: 1_000 }).status(lookup(server.url('/lists/big'), 0))).rejects.toMatchObject({ code: 'status.unavailable', message: /larger/ });
    await expect(client({ timeoutMs: 200 }).status(lookup(server.url('/lists/hang'), 0))).rejects.toMatchObject({ code: 'status.unavailable', message: /time limit/ });
  });

  it('refuses http status list URIs by default, without fetching', async () => {
    const uri = server.url('/lists/https-only');
    server.set('/lists/https-only', { token: await statusListToken(signer, { sub: uri, values: [0] }) });
    await expect(client({ outbound: outboundFetchPolicy() }).status(lookup(uri, 0))).rejects.toMatchObject({ code: 'status.unavailable', message: /https/ });
    expect(server.hits('/lists/https-only')).toBe(0);
  });

  it('checks the issuer anchor and the HAIP chain rules on cached lists too', async () => {
    const uri = server.url('/lists/anchor');
    server.set('/lists/anchor', { token: await statusListToken(signer, { sub: uri, values: [0], x5c: [signer.x5c, ca.x5c] }) });
    const c = client();
    const other = await createTestCa('CN=Other');
    expect(await c.status({ ...lookup(uri, 0), issuerAnchor: ca.der })).toBe(0);
    await expect(c.status({ ...lookup(uri, 0), issuerAnchor: other.der })).rejects.toMatchObject({ code: 'status.unavailable', message: /trust anchor of the credential/ });
    await expect(c.status({ ...lookup(uri, 0), haip: true })).rejects.toMatchObject({ code: 'status.unavailable', message: /HAIP/ });
    expect(server.hits('/lists/anchor')).toBe(1);
  });

  it('rethrows the caller abort instead of reporting unavailability', async () => {
    server.set('/lists/hang2', { hang: true });
    const controller = new AbortController();
    const pending = client({ timeoutMs: 10_000 }).status({ ...lookup(server.url('/lists/hang2'), 0), signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});
