import type { PolicyResult } from '@vp-authorizer/core';
import { CompactSign, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSdJwtFixture, type SdJwtFixture } from '../../__fixtures__/sd-jwt-issuer.js';
import { startStatusListServer, statusListToken, type StatusListServer } from '../../__fixtures__/status-list-server.js';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { sdJwtPresentation, signal, verifyInput } from '../../__fixtures__/verify-input.js';
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
  const { trustAnchors = [ca.pem], ...rest } = options;
  // The fixture server is plain http on 127.0.0.1: tests opt in explicitly.
  return localVerifier({ trustAnchors, outboundFetch: { dangerouslyAllowAnyDestination: true }, ...rest }).verify(verifyInput([sdJwtPresentation(raw)], haipInput), { signal: signal() });
};
let haipInput: Parameters<typeof verifyInput>[1] = {};

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

  it('requires an https status list URI unless outboundFetch.dangerouslyAllowAnyDestination is set', async () => {
    const before = server.hits('/status/1');
    const raw = await fx.present(await fx.issue({ claims: { status: { status_list: { idx: 0, uri } } } }));
    const results = await localVerifier({ trustAnchors: [ca.pem] }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['status:status.unavailable']);
    expect(results.find((r) => r.policy === 'status')!.error!.detail).toMatch(/https/);
    expect(server.hits('/status/1')).toBe(before);
  });

  it('rejects a status list token signed under another trusted anchor than the credential', async () => {
    const otherCa = await createTestCa('CN=Other Trusted Root');
    const otherSigner = await otherCa.issue({ subject: 'CN=Other Status Issuer' });
    const foreign = server.url('/status/foreign');
    server.set('/status/foreign', { token: await statusListToken(otherSigner, { sub: foreign, values: [0] }) });
    expect(errorsOf(await verifyAt(0, foreign, { trustAnchors: [ca.pem, otherCa.pem] }))).toEqual(['status:status.unavailable']);
  });

  it('HAIP: rejects a status list token whose x5c includes the trust anchor', async () => {
    const withAnchor = server.url('/status/with-anchor');
    server.set('/status/with-anchor', { token: await statusListToken(fx.issuerCert, { sub: withAnchor, values: [0], x5c: [fx.issuerCert.x5c, ca.x5c] }) });
    expect(errorsOf(await verifyAt(0, withAnchor))).toEqual([]);
    haipInput = { profile: 'haip' };
    try {
      expect(errorsOf(await verifyAt(0, withAnchor))).toEqual(['status:status.unavailable']);
      expect(errorsOf(await verifyAt(0))).toEqual([]);
    } finally {
      haipInput = {};
    }
  });

  it('reports a validly signed null status list payload as status.unavailable instead of throwing', async () => {
    const nullUri = server.url('/status/null');
    const token = await new CompactSign(new TextEncoder().encode('null'))
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: [fx.issuerCert.x5c] })
      .sign(await importJWK(fx.issuerCert.privateJwk, 'ES256'));
    server.set('/status/null', { token });
    expect(errorsOf(await verifyAt(0, nullUri))).toEqual(['status:status.unavailable']);
  });

  it('reports the status of a DID-issued credential as unavailable (no anchor to tie the list to)', async () => {
    const { didJwk } = await import('../../__fixtures__/did-keys.js');
    const issuer = await didJwk();
    const raw = await fx.present(await fx.issue({ issuerKeys: { ...issuer, keys: undefined as never }, header: { x5c: undefined, kid: issuer.kid }, claims: { iss: issuer.did, status: { status_list: { idx: 0, uri } } } }));
    const results = await localVerifier({ trustAnchors: [ca.pem], outboundFetch: { dangerouslyAllowAnyDestination: true } }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['status:status.unavailable']);
  });

  it('rejects a status claim without status_list', async () => {
    const raw = await fx.present(await fx.issue({ claims: { status: { identifier_list: { id: '1', uri } } } }));
    const results = await localVerifier({ trustAnchors: [ca.pem] }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['status:status.unsupported']);
  });
});
