// A token that stops answering in the middle of C_Sign (SoftHSM2 behind a PKCS#11 module whose
// C_Sign blocks on demand): each hung call holds one of Node's worker threads inside the library
// until the token answers. The signer holds at most its sessions' worth of them (fewer than the
// pool), refuses further signatures at once while all of them hang, and recovers when the token does.
import { pbkdf2, verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { lookup } from 'node:dns/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { generatePkcs11Key, openPkcs11Signer, type Pkcs11Signer } from '@vp-authorizer/pkcs11';
import { SOFTHSM_MODULE, startSoftHsm, type SoftHsm } from './__fixtures__/softhsm.js';
import { buildHangingModule, type HangingModule } from './__fixtures__/hanging-module.js';
import { certificateForKey } from './__fixtures__/certificate-for-key.js';

const PIN = 'hang-pin-4410';
const DATA = new TextEncoder().encode('header.payload');
/** libuv's pool as Node sizes it (4 unless UV_THREADPOOL_SIZE says otherwise); the default sessions are half of it. */
const THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4;
const SESSIONS = Math.floor(THREADS / 2);
let hsm: SoftHsm;
let hanging: HangingModule;
let signer: Pkcs11Signer;
let authorizer: Authorizer;

/** Work that needs Node's thread pool: a file read, a PBKDF2 derivation and a DNS lookup. */
const threadPoolWork = () => Promise.all([readFile(new URL(import.meta.url)), promisify(pbkdf2)('pw', 'salt', 1000, 32, 'sha256'), lookup('localhost')]);

beforeAll(async () => {
  hsm = startSoftHsm();
  hsm.initToken('hangs', PIN);
  hanging = buildHangingModule(hsm.dir, SOFTHSM_MODULE);
  const { publicKey } = await generatePkcs11Key({ module: hanging.path, token: { label: 'hangs' }, pin: PIN, label: 'k' });
  const { leafPem, rootPem } = await certificateForKey(publicKey);
  // Default sessions: half of the 4 worker threads.
  signer = await openPkcs11Signer({ module: hanging.path, token: { label: 'hangs' }, pin: PIN, key: { label: 'k' }, certificateChain: [leafPem], timeoutMs: 300 });
  authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example/authz',
    sweepIntervalMs: 0,
    instances: [{ id: 'hsm', apiKeys: ['hsm-api-key-0123456789'], signing: { signer, trustAnchor: rootPem, timeoutMs: 5_000 }, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });
  await authorizer.ready();
});

afterAll(async () => {
  hanging?.answer();
  await authorizer?.close();
  await signer?.close();
  hsm?.remove();
});

describe('a PKCS#11 token that stops answering C_Sign', () => {
  it('uses half of Node\'s worker threads as sessions by default', async () => {
    await Promise.all(Array.from({ length: 16 }, () => signer.sign(DATA)));
    expect(signer.sessionsOpen).toBe(SESSIONS);
  });

  it('fails signatures after timeoutMs, then refuses at once while every session hangs, and the thread pool keeps working', async () => {
    hanging.hang();
    const attempts = Array.from({ length: SESSIONS + 6 }, () => signer.sign(DATA).then(() => 'signed', (e: Error) => e.message));
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((m) => m.includes('did not answer C_Sign within 300 ms'))).toHaveLength(SESSIONS);
    expect(outcomes.filter((m) => m.includes(`all ${SESSIONS} PKCS#11 sessions wait for calls the token has not answered`))).toHaveLength(6);
    await expect(signer.sign(DATA)).rejects.toThrow(`all ${SESSIONS} PKCS#11 sessions wait`);
    // Those threads are stuck inside the library; the others still serve files, crypto and DNS.
    await threadPoolWork();
    expect(signer.sessionsOpen).toBe(SESSIONS);

    const { authorizationId } = (await authorizer.createAuthorization('hsm', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } })) as { authorizationId: string };
    await expect(authorizer.getRequestObject(authorizationId)).rejects.toMatchObject({ code: 'signing.unavailable', status: 503 });
  });

  it('signs again once the token answers: the hung sessions are closed, fresh ones opened', async () => {
    hanging.answer();
    await expect.poll(() => signer.sessionsOpen).toBe(0);
    const signature = await signer.sign(DATA);
    expect(verify('sha256', DATA, { key: signer.publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('closes without waiting for a call the token never answers', async () => {
    hanging.hang();
    await expect(signer.sign(DATA)).rejects.toThrow('did not answer');
    await signer.close();
    expect(signer.sessionsOpen).toBe(1);
    hanging.answer();
    await expect.poll(() => signer.sessionsOpen).toBe(0);
  });
});

describe('openPkcs11Signer and Node\'s worker threads', () => {
  it('refuses as many sessions as the thread pool has threads, naming UV_THREADPOOL_SIZE', async () => {
    const options = { module: SOFTHSM_MODULE, token: { label: 'hangs' }, pin: PIN, key: { label: 'k' } };
    await expect(openPkcs11Signer({ ...options, sessions: THREADS })).rejects.toThrow(`sessions must be a whole number from 1 to ${THREADS - 1}, fewer than Node's ${THREADS} worker threads (UV_THREADPOOL_SIZE)`);
    await expect(openPkcs11Signer({ ...options, timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be/);
  });
});
