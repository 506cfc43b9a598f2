import type { PolicyResult } from '@vp-authorizer/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSdJwtFixture, type SdJwtFixture } from '../__fixtures__/sd-jwt-issuer.js';
import { startStatusListServer, statusListToken, type StatusListServer } from '../__fixtures__/status-list-server.js';
import { createTestCa, type TestCa } from '../__fixtures__/test-ca.js';
import { sdJwtPresentation, signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);

let ca: TestCa;
let fx: SdJwtFixture;
let server: StatusListServer;
let uri: string;

beforeAll(async () => {
  ca = await createTestCa();
  fx = await createSdJwtFixture(ca);
  server = await startStatusListServer();
  uri = server.url('/status/1');
  // idx 0 valid, 1 revoked, 2 suspended, 3 application-specific
  server.set('/status/1', { token: await statusListToken(fx.issuerCert, { sub: uri, values: [0, 1, 2, 3] }) });
});
afterAll(() => server.close());

const verifyAt = async (idx: number, statusUri = uri, options: Partial<Parameters<typeof localVerifier>[0]> = {}) => {
  const raw = await fx.present(await fx.issue({ claims: { status: { status_list: { idx, uri: statusUri } } } }));
  return localVerifier({ trustAnchors: [ca.pem], ...options }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
};

describe('localVerifier: SD-JWT VC Token Status List', () => {
  it('passes a valid status and reports it', async () => {
    const results = await verifyAt(0);
    expect(errorsOf(results)).toEqual([]);
    expect(results.find((r) => r.policy === 'status')!.data).toMatchObject({ status: 'valid', idx: 0 });
  });

  it('rejects a revoked, a suspended and an unknown status value', async () => {
    expect(errorsOf(await verifyAt(1))).toEqual(['status:status.revoked']);
    expect(errorsOf(await verifyAt(2))).toEqual(['status:status.suspended']);
    expect(errorsOf(await verifyAt(3))).toEqual(['status:status.unknown_value']);
  });

  it('reports an unreachable status list as status.unavailable (a result, not a throw)', async () => {
    expect(errorsOf(await verifyAt(0, server.url('/status/missing')))).toEqual(['status:status.unavailable']);
  });

  it('skips the fetch when status lists are disabled', async () => {
    const before = server.hits('/status/1');
    const results = await verifyAt(1, uri, { statusList: { enabled: false } });
    expect(errorsOf(results)).toEqual([]);
    expect(results.find((r) => r.policy === 'status')!.data).toMatchObject({ checked: false });
    expect(server.hits('/status/1')).toBe(before);
  });

  it('uses the injected fetch', async () => {
    const seen: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    expect(errorsOf(await verifyAt(1, uri, { fetch: fetchSpy }))).toEqual(['status:status.revoked']);
    expect(seen).toEqual([uri]);
  });

  it('rejects a status claim without status_list', async () => {
    const raw = await fx.present(await fx.issue({ claims: { status: { identifier_list: { id: '1', uri } } } }));
    const results = await localVerifier({ trustAnchors: [ca.pem] }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['status:status.unsupported']);
  });
});
