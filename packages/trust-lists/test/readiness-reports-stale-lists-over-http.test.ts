import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthorizer, type Authorizer } from '@vp-authorizer/core';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { buildSignedList, createListSigner, createTestCa, GRANTED, TEST_API_KEY, testSigningKey, type ListSigner, type TestCa } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustLists, type TrustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

// GET /health/ready asks lists.readiness(): 204 while the list is fresh, 503 readiness.not_ready
// naming the list once it is past NextUpdate plus grace, 204 again after a good refresh.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('GET /health/ready with a trusted list', () => {
  let signer: ListSigner;
  let provider: TestCa;
  let lists: TrustLists;
  let authorizer: Authorizer;
  let server: Server;
  let origin: string;
  let path: string;
  const folder = tempFolder();
  const clock = { at: Date.now(), now: () => clock.at };
  // Lists carry whole seconds.
  const list = (nextUpdate: number) =>
    buildSignedList(
      { nextUpdate: new Date(Math.floor(nextUpdate / 1000) * 1000), services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(clock.at - DAY), certificates: [provider.x5c] }] },
      signer,
    );

  beforeAll(async () => {
    signer = await createListSigner('readiness over http list signer');
    provider = await createTestCa('CN=Readiness HTTP PID Provider CA');
    path = folder.write('national.xml', list(clock.at + 2 * HOUR));
    // Reloaded every 100-200 ms of real time, so that a rewritten file is picked up within the test.
    lists = trustLists({ sources: [`tl:${path}`], signers: [signer.pem], clock, graceMs: HOUR, refresh: { minIntervalMs: 100, maxIntervalMs: 200, retryMs: 100 } });
    await lists.ready();
    const { signing } = await testSigningKey();
    server = createServer(async (req, res) => {
      const answer = await authorizer.fetch(new Request(`${origin}${req.url}`));
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    authorizer = createAuthorizer({
      publicBaseUrl: origin,
      clock,
      readiness: [lists.readiness()],
      instances: [{ id: 'main', apiKeys: [TEST_API_KEY], signing, validator: localValidator({ issuerAnchors: lists }), verifier: localVerifier({ trustAnchors: [], issuerAnchors: lists }) }],
    });
  });
  afterAll(async () => {
    lists?.close();
    await authorizer?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('is ready with a fresh list, not ready (naming it, 503 + Retry-After) once stale, and ready again after a good refresh', async () => {
    expect((await fetch(`${origin}/health/ready`)).status).toBe(204);

    // Past NextUpdate plus grace; the file still holds the old list, so refreshes keep failing as stale.
    clock.at += 3 * HOUR + 2_000;
    const stale = await fetch(`${origin}/health/ready`);
    expect(stale.status).toBe(503);
    expect(stale.headers.get('retry-after')).toBe('1');
    const body = (await stale.json()) as { type: string; message: string };
    expect(body.type).toBe('readiness.not_ready');
    expect(body.message).toContain('trust-lists: national.xml is stale');
    // A file is named by its name only, not the folder it sits in.
    expect(body.message).not.toContain(folder.write('probe.txt', '').replace(/probe\.txt$/, ''));

    // The publisher issues a fresh list: the next refresh loads it and readiness answers 204 again.
    const loadedBefore = lists.status()[0]!.loadedAt;
    folder.write('national.xml', list(clock.at + 2 * HOUR));
    await vi.waitFor(() => expect(lists.status()[0]).toMatchObject({ state: 'ready', loadedAt: expect.any(Number) }), { timeout: 5_000, interval: 50 });
    expect(lists.status()[0]!.loadedAt).not.toBe(loadedBefore);
    clock.at += 2_000; // past the 1 s the previous answer is reused
    expect((await fetch(`${origin}/health/ready`)).status).toBe(204);
  });

  it('a list that never loaded is not ready', async () => {
    const missing = trustLists({ sources: [`tl:${path.replace(/national\.xml$/, 'absent.xml')}`], signers: [signer.pem], clock });
    await missing.ready();
    await expect(missing.readiness().check()).resolves.toEqual({ ready: false, detail: 'absent.xml is not loaded (its load failed)' });
    missing.close();
  });
});
