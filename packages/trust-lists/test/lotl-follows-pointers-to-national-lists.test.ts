import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSignedList, createListSigner, createTestCa, GRANTED, type ListSigner, LOTL, type TestCa, WITHDRAWN } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';

const DAY = 86_400_000;
const pid = { purpose: 'credential' as const, credentialTypes: ['urn:eudi:pid:1'] };

describe('a LoTL pointing to national lists', () => {
  let server: Server;
  let base: string;
  const served = new Map<string, Buffer>();
  const hits = new Map<string, number>();
  let lotlSigner: ListSigner;
  let aaSigner: ListSigner;
  let bbSigner: ListSigner;
  let aaProvider: TestCa;
  const now = Date.now();

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      const body = served.get(req.url!);
      // Answer a little later, so that concurrent fetches overlap.
      setTimeout(() => {
        if (!body) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/vnd.etsi.tsl+xml' }).end(body);
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    lotlSigner = await createListSigner('LoTL signer');
    aaSigner = await createListSigner('AA list signer');
    bbSigner = await createListSigner('BB list signer');
    aaProvider = await createTestCa('CN=AA PID Provider CA');
    served.set('/aa.xml', buildSignedList({ territory: 'AA', services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [aaProvider.x5c] }] }, aaSigner));
    // /bb.xml is not served: that national list fails, the rest stays usable.
    served.set(
      '/lotl.xml',
      buildSignedList(
        {
          type: LOTL,
          territory: 'EU',
          pointers: [
            { location: `${base}/lotl.xml`, territory: 'EU', listType: LOTL, signers: [lotlSigner.base64] },
            { location: `${base}/aa.xml`, territory: 'AA', signers: [aaSigner.base64] },
            { location: `${base}/bb.xml`, territory: 'BB', signers: [bbSigner.base64] },
            { location: `${base}/aa.pdf`, territory: 'AA', mimeType: 'application/pdf', signers: [aaSigner.base64] },
          ],
        },
        lotlSigner,
      ),
    );
  });
  afterAll(() => server.close());

  const options = () => ({ sources: [`lotl:${base}/lotl.xml`], signers: [lotlSigner.pem], outboundFetch: { dangerouslyAllowAnyDestination: true } });

  it('loads the reachable national list with the signer the LoTL names, and reports the failing one', async () => {
    const lists = trustLists(options());
    await lists.ready();
    const status = lists.status();
    expect(status.map((s) => [s.source.replace(base, ''), s.state, s.territory])).toEqual([
      ['/lotl.xml', 'ready', 'EU'],
      ['/aa.xml', 'ready', 'AA'],
      ['/bb.xml', 'failed', 'BB'],
    ]);
    expect(status[1]).toMatchObject({ via: `${base}/lotl.xml`, anchors: 1 });
    expect(status[2]?.error?.code).toBe('trust_list.fetch_failed');
    // Ready for traffic: the configured LoTL loaded; one national list failing is reported, not fatal.
    expect(lists.isReady()).toBe(true);
    expect((await lists.issuerAnchors({ ...pid, top: new Uint8Array(aaProvider.der) })).anchors).toHaveLength(1);
    lists.close();
  });

  it('refuses a national list signed by a key the LoTL does not name for it', async () => {
    served.set('/aa.xml', buildSignedList({ territory: 'AA', services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [aaProvider.x5c] }] }, bbSigner));
    try {
      const lists = trustLists(options());
      await lists.ready();
      expect(lists.status()[1]?.error?.code).toBe('trust_list.unknown_signer');
      expect((await lists.issuerAnchors({ ...pid, top: new Uint8Array(aaProvider.der) })).anchors).toEqual([]);
      lists.close();
    } finally {
      served.set('/aa.xml', buildSignedList({ territory: 'AA', services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [aaProvider.x5c] }] }, aaSigner));
    }
  });

  it('follows only the territories asked for', async () => {
    const lists = trustLists({ ...options(), territories: ['BB'] });
    await lists.ready();
    expect(lists.status().map((s) => s.territory)).toEqual(['EU', 'BB']);
    lists.close();
  });

  it('shares one fetch of a URL between instances loading it at the same time', async () => {
    hits.clear();
    const a = trustLists(options());
    const b = trustLists(options());
    await Promise.all([a.ready(), b.ready()]);
    expect(hits.get('/lotl.xml')).toBe(1);
    expect(hits.get('/aa.xml')).toBe(1);
    a.close();
    b.close();
  });

  it('keeps the last good list when a refresh fails, and takes the next good one', async () => {
    const lists = trustLists({ sources: [`tl:${base}/refresh.xml`], signers: [aaSigner.pem], outboundFetch: { dangerouslyAllowAnyDestination: true }, refresh: { minIntervalMs: 1, maxIntervalMs: 50, retryMs: 1 } });
    served.set('/refresh.xml', buildSignedList({ sequence: 7, services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [aaProvider.x5c] }] }, aaSigner));
    await lists.ready();
    served.delete('/refresh.xml');
    await until(() => lists.status()[0]?.error !== undefined);
    expect(lists.status()[0]).toMatchObject({ state: 'ready', sequence: 7, error: { code: 'trust_list.fetch_failed' } });
    expect((await lists.issuerAnchors({ ...pid, top: new Uint8Array(aaProvider.der) })).anchors).toHaveLength(1);
    served.set('/refresh.xml', buildSignedList({ sequence: 8, services: [{ type: SERVICE_TYPES.pidIssuance, status: WITHDRAWN, since: new Date(now - 1000), certificates: [aaProvider.x5c] }] }, aaSigner));
    await until(() => lists.status()[0]?.sequence === 8);
    expect((await lists.issuerAnchors({ ...pid, top: new Uint8Array(aaProvider.der) })).refusal?.code).toBe('trusted_issuer.withdrawn');
    // An older sequence number is a replay: refused, the newer list stays.
    served.set('/refresh.xml', buildSignedList({ sequence: 7, services: [] }, aaSigner));
    await until(() => lists.status()[0]?.error?.code === 'trust_list.malformed');
    expect(lists.status()[0]?.sequence).toBe(8);
    lists.close();
  });

  it('stops trusting a national list once the LoTL no longer points to it, and while the LoTL is stale', async () => {
    const clock = { at: Date.now(), now: () => clock.at };
    const lotl = (pointers: { location: string; territory: string; signers: string[] }[], sequence: number) =>
      buildSignedList({ type: LOTL, territory: 'EU', sequence, nextUpdate: new Date(clock.at + DAY), pointers }, lotlSigner);
    served.set('/lotl2.xml', lotl([{ location: `${base}/aa.xml`, territory: 'AA', signers: [aaSigner.base64] }], 1));
    const lists = trustLists({ sources: [`lotl:${base}/lotl2.xml`], signers: [lotlSigner.pem], clock, graceMs: 0, outboundFetch: { dangerouslyAllowAnyDestination: true }, refresh: { minIntervalMs: 1, maxIntervalMs: 30, retryMs: 1 } });
    await lists.ready();
    const top = new Uint8Array(aaProvider.der);
    expect((await lists.issuerAnchors({ ...pid, top })).anchors).toHaveLength(1);

    // The LoTL goes stale (no fresh one can be loaded): the national list it vouches for too.
    served.delete('/lotl2.xml');
    clock.at += DAY + 1000;
    expect(lists.status().map((s) => s.state)).toEqual(['stale', 'stale']);
    expect((await lists.issuerAnchors({ ...pid, top })).refusal?.code).toBe('trusted_issuer.list_stale');

    // A fresh LoTL without the AA pointer: the AA list is dropped.
    served.set('/lotl2.xml', lotl([], 2));
    await until(() => lists.status().length === 1 && lists.status()[0]?.sequence === 2);
    expect((await lists.issuerAnchors({ ...pid, top })).anchors).toEqual([]);
    lists.close();
  });

  it('refuses http and private destinations unless the test allowance is on', async () => {
    expect(() => trustLists({ sources: [`${base}/lotl.xml`], signers: [lotlSigner.pem] })).toThrow(/https only/);
    const lists = trustLists({ sources: ['https://127.0.0.1/lotl.xml'], signers: [lotlSigner.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.message).toContain('outbound.destination_refused');
    lists.close();
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
