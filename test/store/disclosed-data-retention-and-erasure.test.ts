/**
 * Retention and erasure of what a wallet disclosed (`openId4vp.dataRetention`, `DELETE
 * …/personal-data`), proven through HTTP on the memory store and on Redis, and checked in the store
 * itself: the raw record (the memory store's own `get`; a plain Redis GET of the key) no longer
 * holds the claims after the window, and keeps the outcome where `anonymize` says so. Time moves
 * with the authorizer's test clock; Redis keeps TTLs itself, so there the TTL Redis holds is read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthorizer, memoryStore, type AuthorizationRecord, type AuthorizerStore, type InstanceOptions } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { createTestClock, startPassThroughAuthorizer, testSigningKey, TEST_OTHER_API_KEY, type PassThroughAuthorizerServer, type TestClock } from '@vp-authorizer/testing';
import { contractDcql, encryptWalletResponse, issueContractSdJwt } from '@vp-authorizer/testing/contracts';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';

const redisUrl = redisUrlForTests('test/store/disclosed-data-retention-and-erasure.test.ts (Redis part)');
const MINUTE = 60_000;
/** The disclosed claim of the contract credential, as it appears in a stored record's JSON. */
const DISCLOSED = '"given_name":"Ada"';

/** A store under test with a way to read its raw record. */
interface StoreSubject {
  store: AuthorizerStore;
  /** The stored value's JSON text as the engine holds it, or null. */
  raw(id: string): Promise<string | null>;
  /** The record in that value (Redis wraps it in a format envelope). */
  record(id: string): Promise<AuthorizationRecord>;
  /**
   * Milliseconds the engine still keeps the record, when it keeps time itself (Redis: PTTL);
   * undefined for a store on the test clock, whose TTL the test checks by moving the clock.
   */
  engineTtl(id: string): Promise<number | null> | undefined;
  close(): Promise<void>;
}

type SubjectFactory = (clock: TestClock) => Promise<StoreSubject>;

const memorySubject: SubjectFactory = async (clock) => {
  const store = memoryStore({ clock, sweepIntervalMs: 0 });
  return {
    store,
    // The memory store's own read: what it holds (null once the TTL has passed by its clock).
    raw: async (id) => {
      const record = await store.get('main', id);
      return record === null ? null : JSON.stringify(record);
    },
    record: async (id) => (await store.get('main', id))!,
    engineTtl: () => undefined,
    close: async () => store.close(),
  };
};

const redisSubject: SubjectFactory = async () => {
  const prefix = testPrefix();
  const client = testClient(redisUrl!);
  const store = redisStore({ url: redisUrl!, keyPrefix: prefix });
  const key = (id: string) => `${prefix}{a:main:${id}}`;
  return {
    store,
    raw: (id) => client.get(key(id)),
    record: async (id) => (JSON.parse((await client.get(key(id)))!) as { r: AuthorizationRecord }).r,
    engineTtl: async (id) => {
      const ms = await client.pttl(key(id));
      return ms < 0 ? null : ms;
    },
    async close() {
      await store.close();
      await deleteKeys(client, prefix);
      client.disconnect();
    },
  };
};

const subjects: [string, SubjectFactory][] = [['memory store', memorySubject]];
if (redisUrl !== undefined) subjects.push(['Redis', redisSubject]);

describe.each(subjects)('disclosed-data retention and erasure on the %s', (_name, makeSubject) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(dataRetention?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const clock = createTestClock(Date.now());
    const subject = await makeSubject(clock);
    const server = await startPassThroughAuthorizer({
      store: subject.store,
      clock,
      instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback', ...extra, ...(dataRetention ? { dataRetention } : {}) } } },
    });
    cleanups.push(async () => {
      await server.close();
      await subject.close();
    });
    return { clock, subject, server };
  }

  it('anonymize after the terminal status: once the window has passed, the sweep erases the claims; the outcome and timings stay in the store', async () => {
    const { clock, subject, server } = await start({ afterTerminal: 5 * MINUTE, mode: 'anonymize' });
    const id = await authorizedFlow(server);
    expect(await subject.raw(id)).toContain(DISCLOSED);
    expect((await readCredentials(server, id)).status).toBe(200);

    clock.advance(5 * MINUTE - 1);
    await server.authorizer.sweepExpired();
    expect(await subject.raw(id), 'kept until the window ends').toContain(DISCLOSED);

    clock.advance(1);
    await server.authorizer.sweepExpired();
    const stored = await subject.record(id);
    expect(JSON.stringify(stored)).not.toContain(DISCLOSED);
    expect(stored).toMatchObject({ status: 'authorized', credentials: [], erasedAt: clock.now() });
    expect(stored.eraseAt).toBeUndefined();
    expect(stored.request.walletMetadata).toBeUndefined();
    // Each policy result keeps who decided what, without the data.
    expect(stored.policyResults.length).toBeGreaterThan(0);
    for (const result of stored.policyResults) expect(result.data ?? {}).toEqual({});
    expect(stored.updatedAt).toBeLessThan(stored.erasedAt!);

    expect(await statusOf(server, id)).toEqual({ status: 'authorized' });
    expect(await errorOf(await readCredentials(server, id))).toEqual([410, 'authorization.data_erased']);
    expect(await errorOf(await server.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`))).toEqual([410, 'authorization.data_erased']);
  });

  it('anonymize is applied on read too, before any sweep runs: no read hands out claims past the window', async () => {
    const { clock, subject, server } = await start({ afterTerminal: 5 * MINUTE });
    const id = await authorizedFlow(server);
    clock.advance(5 * MINUTE);
    expect(await errorOf(await readCredentials(server, id))).toEqual([410, 'authorization.data_erased']);
    expect(await subject.raw(id)).not.toContain(DISCLOSED);
  });

  it('afterRead: the first read of the claims brings the erasure forward to the window after it', async () => {
    const { clock, subject, server } = await start({ afterRead: MINUTE, mode: 'anonymize' });
    const id = await authorizedFlow(server);
    clock.advance(10 * MINUTE);
    await server.authorizer.sweepExpired();
    expect(await subject.raw(id), 'unread data stays as long as the record').toContain(DISCLOSED);

    const read = await readCredentials(server, id);
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain('Ada');
    const readAt = clock.now();
    clock.advance(MINUTE);
    await server.authorizer.sweepExpired();
    const stored = await subject.record(id);
    expect(JSON.stringify(stored)).not.toContain(DISCLOSED);
    expect(stored).toMatchObject({ status: 'authorized', firstReadAt: readAt, erasedAt: readAt + MINUTE });
  });

  it('delete after the terminal status: the store keeps the record only for the window', async () => {
    const { clock, subject, server } = await start({ afterTerminal: 5 * MINUTE, mode: 'delete' });
    const id = await authorizedFlow(server);
    const engineTtl = subject.engineTtl(id);
    if (engineTtl !== undefined) {
      // Redis holds the TTL: at most the window (without one, retention: 24 h after expiry).
      const remaining = await engineTtl;
      expect(remaining).not.toBeNull();
      expect(remaining!).toBeLessThanOrEqual(5 * MINUTE);
      expect(remaining!).toBeGreaterThan(4 * MINUTE);
      return;
    }
    clock.advance(5 * MINUTE - 1);
    expect(await subject.raw(id)).toContain(DISCLOSED);
    clock.advance(1);
    expect(await subject.raw(id)).toBeNull();
    expect((await server.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).status).toBe(404);
  });

  it('delete with afterRead 0: the record leaves the store right after the relying party read the claims', async () => {
    const { clock, subject, server } = await start({ afterRead: 0, mode: 'delete' });
    const id = await authorizedFlow(server);
    const read = await readCredentials(server, id);
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain('Ada');
    clock.advance(1);
    // Redis drops it by its own clock after 1 ms; a short poll bounded by a deadline, no fixed sleep.
    const deadline = Date.now() + 2_000;
    while ((await subject.raw(id)) !== null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await subject.raw(id)).toBeNull();
    expect((await server.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).status).toBe(404);
  });

  it('DELETE …/personal-data erases at once and idempotently, is scoped to the instance, and a late wallet response cannot bring anything back', async () => {
    const { subject, server } = await start();
    const { id, form, responseUri } = await authorizedFlowWithResponse(server);
    const path = `/openid4/vp/v1_0/authorizations/${id}/personal-data`;

    expect(await errorOf(await server.api(path, { method: 'DELETE', key: TEST_OTHER_API_KEY }))).toEqual([404, 'authorization.not_found']);
    expect((await server.api(path, { method: 'DELETE', key: null })).status).toBe(401);
    expect(await subject.raw(id)).toContain(DISCLOSED);

    const first = await server.api(path, { method: 'DELETE' });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    const erasedOnce = await subject.record(id);
    expect(JSON.stringify(erasedOnce)).not.toContain(DISCLOSED);
    expect(erasedOnce.status).toBe('authorized');

    const second = await server.api(path, { method: 'DELETE' });
    expect(second.status).toBe(204);
    expect(await subject.record(id)).toEqual(erasedOnce);

    // The wallet posts its response again: refused, and the stored record stays as erased.
    const late = await fetch(responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(late.status).toBe(400);
    expect(await subject.record(id)).toEqual(erasedOnce);
    expect(await statusOf(server, id)).toEqual({ status: 'authorized' });
    expect(await errorOf(await readCredentials(server, id))).toEqual([410, 'authorization.data_erased']);

    // The typed method answers the same.
    await expect(server.authorizer.erasePersonalData('main', id)).resolves.toBeUndefined();
  });

  it('DELETE …/personal-data of an authorization without an outcome answers 409 authorization.not_finished and changes nothing; an unknown id 404', async () => {
    const { subject, server } = await start();
    const created = await createAuthorization(server);
    const before = await subject.raw(created.authorizationId);
    const answer = await server.api(`/openid4/vp/v1_0/authorizations/${created.authorizationId}/personal-data`, { method: 'DELETE' });
    expect(await errorOf(answer)).toEqual([409, 'authorization.not_finished']);
    expect(await subject.raw(created.authorizationId)).toBe(before);
    expect(await errorOf(await server.api('/openid4/vp/v1_0/authorizations/AAAAAAAAAAAAAAAAAAAAAA/personal-data', { method: 'DELETE' }))).toEqual([404, 'authorization.not_found']);
  });
});

describe('dataRetention configuration', () => {
  const instance = async (dataRetention: Record<string, unknown>, openId4vp: Record<string, unknown> = {}) => {
    const { signing } = await testSigningKey();
    return () => createAuthorizer({ publicBaseUrl: 'https://authz.example', instances: [{ id: 'main', apiKeys: ['key-main-000000000001'], signing, config: { policies: { validate: { skip: true }, verify: { skip: true } }, openId4vp: { ...openId4vp, dataRetention } } } as InstanceOptions] });
  };

  it('refuses a window after the outcome shorter than the response code lifetime, naming the fix', async () => {
    const build = await instance({ afterTerminal: 60_000 });
    expect(build).toThrow(/dataRetention\.afterTerminal: \(60000 ms\) is shorter than openId4vp\.responseCodeTtl \(300000 ms\).*lower responseCodeTtl or raise afterTerminal/);
    const accepted = await instance({ afterTerminal: 60_000 }, { responseCodeTtl: 60_000 });
    await accepted().close();
  });

  it('refuses a window longer than the record is kept, and an unknown mode', async () => {
    expect(await instance({ afterRead: 2 * 86_400_000 })).toThrow(/dataRetention\.afterRead: .*longer than openId4vp\.retention/);
    expect(await instance({ mode: 'shred' })).toThrow(/dataRetention\.mode must be "delete" or "anonymize"/);
  });
});

async function createAuthorization(server: PassThroughAuthorizerServer): Promise<{ authorizationId: string; authorizeUrl: string }> {
  const created = await server.api('/openid4/vp/v1_0/authorizations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { authorizationId: string; authorizeUrl: string };
}

/** A direct_post.jwt flow to `authorized` with the contract credential; the wallet's form is kept to post it again. */
async function authorizedFlowWithResponse(server: PassThroughAuthorizerServer): Promise<{ id: string; form: string; responseUri: string }> {
  const { authorizationId, authorizeUrl } = await createAuthorization(server);
  const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
  const fetched = await fetch(requestUri);
  expect(fetched.status).toBe(200);
  const claims = JSON.parse(Buffer.from((await fetched.text()).split('.')[1]!, 'base64url').toString('utf8')) as { response_uri: string; state: string };
  const response = await encryptWalletResponse(claims, { vp_token: { pid: [await issueContractSdJwt()] }, state: claims.state });
  const form = new URLSearchParams({ response }).toString();
  const answered = await fetch(claims.response_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answered.status, await answered.clone().text()).toBe(200);
  expect(await statusOf(server, authorizationId)).toEqual({ status: 'authorized' });
  return { id: authorizationId, form, responseUri: claims.response_uri };
}

const authorizedFlow = async (server: PassThroughAuthorizerServer): Promise<string> => (await authorizedFlowWithResponse(server)).id;

const readCredentials = (server: PassThroughAuthorizerServer, id: string) => server.api(`/openid4/vp/v1_0/authorizations/${id}/credentials`);

async function statusOf(server: PassThroughAuthorizerServer, id: string): Promise<unknown> {
  return (await server.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json();
}

async function errorOf(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { type?: string };
  return [response.status, body.type ?? ''];
}
