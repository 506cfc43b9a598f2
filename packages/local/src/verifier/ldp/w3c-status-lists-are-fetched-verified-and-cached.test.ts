import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import type { ParsedLdp, PolicyResult } from '@vp-authorizer/core';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createDidKey, issueCredential, issuerDocumentLoader, signPresentation, unsignedCredential, type DidKeyHolder } from '../../__fixtures__/data-integrity-issuer.js';
import { CLIENT_ID, NONCE, signal, verifyInput } from '../../__fixtures__/verify-input.js';
import { bitstring, encodedList, multiBitstring, startW3cStatusListServer, type W3cStatusListServer } from '../../__fixtures__/w3c-status-list-server.js';
import { localVerifier } from '../local-verifier.js';

let server: W3cStatusListServer;
let issuer: DidKeyHolder;
let other: DidKeyHolder;
let holder: DidKeyHolder;
let now = Date.now();
// The StatusList2021 context is not among the shared test data: the issuing side reads the published copy this package bundles.
const STATUS_LIST_2021 = 'https://w3id.org/vc/status-list/2021/v1';
const loader = issuerDocumentLoader({ [STATUS_LIST_2021]: JSON.parse(readFileSync(new URL('../../data-integrity/contexts/status-list-2021-v1.json', import.meta.url), 'utf8')) });
const clock = { now: () => now };
// The status lists are served over http from 127.0.0.1, which the default policy refuses.
const verifier = () => localVerifier({ trustAnchors: [], clock, outboundFetch: { dangerouslyAllowAnyDestination: true } });

beforeAll(async () => {
  server = await startW3cStatusListServer();
  issuer = await createDidKey('Ed25519');
  other = await createDidKey('Ed25519');
  holder = await createDidKey('Ed25519');
});
afterAll(() => server.close());

/** A Data Integrity secured status list credential, issued with @digitalbazaar/vc. */
async function statusListCredential(path: string, purpose: string, set: number[], options: { by?: DidKeyHolder; entries?: number; ttl?: number; legacy?: boolean; bits?: Uint8Array } = {}) {
  const by = options.by ?? issuer;
  const url = server.url(path);
  const credential = options.legacy
    ? {
        '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/vc/status-list/2021/v1', 'https://w3id.org/security/data-integrity/v2'],
        id: url,
        type: ['VerifiableCredential', 'StatusList2021Credential'],
        issuer: by.did,
        issuanceDate: '2024-01-01T00:00:00Z',
        credentialSubject: { id: `${url}#list`, type: 'StatusList2021', statusPurpose: purpose, encodedList: encodedList(bitstring(set, options.entries), false) },
      }
    : {
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: by.did,
        validFrom: '2024-01-01T00:00:00Z',
        credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: purpose, encodedList: encodedList(options.bits ?? bitstring(set, options.entries)), ...(options.ttl === undefined ? {} : { ttl: options.ttl }) },
      };
  return issueCredential(credential, by, 'eddsa-rdfc-2022', { loader });
}

/** The same list secured as a VC-JOSE-COSE JWT by the issuer's did:key Ed25519 key. */
async function statusListJwt(path: string, purpose: string, set: number[]) {
  const url = server.url(path);
  const jwk = await Ed25519Multikey.toJwk({ keyPair: issuer.keyPair, secretKey: true });
  // The multikey library keeps seed and public key in its secret key; JOSE wants the 32-byte seed.
  jwk.d = Buffer.from(jwk.d, 'base64url').subarray(0, 32).toString('base64url');
  const payload = { '@context': ['https://www.w3.org/ns/credentials/v2'], id: url, type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: issuer.did, validFrom: '2024-01-01T00:00:00Z', credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: purpose, encodedList: encodedList(bitstring(set)) } };
  return new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuer.verificationMethod }).setIssuer(issuer.did).sign(await importJWK(jwk, 'EdDSA'));
}

const entry = (path: string, purpose: string, index: number, type = 'BitstringStatusListEntry') => ({ id: `${server.url(path)}#${index}`, type, statusPurpose: purpose, statusListIndex: String(index), statusListCredential: server.url(path) });

async function presentation(status: unknown, context?: unknown[]) {
  const vc = await issueCredential(unsignedCredential(issuer.did, { id: holder.did }, { credentialStatus: status, ...(context ? { '@context': context } : {}) }), issuer, 'eddsa-rdfc-2022', { loader });
  return signPresentation([vc], holder, { challenge: NONCE, domain: CLIENT_ID, loader });
}
const parsed = (raw: Record<string, unknown>): ParsedLdp => ({ kind: 'ldp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'ldp_vc', raw });
const statusOf = async (raw: Record<string, unknown>, client = verifier()) => {
  const results: PolicyResult[] = await client.verify(verifyInput([parsed(raw)]), { signal: signal() });
  expect(results.filter((r) => r.error && r.policy !== 'status').map((r) => r.error!.code)).toEqual([]);
  const status = results.find((r) => r.policy === 'status' && r.path.length > 2)!;
  return status.error ? status.error.code : status.data;
};

describe('Bitstring Status List over a local status list server', () => {
  it('an entry whose bit is 0 is valid; the result names the list, index and purpose', async () => {
    server.set('/valid', await statusListCredential('/valid', 'revocation', [3]));
    expect(await statusOf(await presentation(entry('/valid', 'revocation', 4)))).toEqual({ status: 'valid', uri: server.url('/valid'), idx: 4, purpose: 'revocation', type: 'BitstringStatusListEntry' });
  });

  it('a revocation bit of 1 fails as status.revoked, a suspension bit as status.suspended', async () => {
    server.set('/revocation', await statusListCredential('/revocation', 'revocation', [7]));
    server.set('/suspension', await statusListCredential('/suspension', 'suspension', [9]));
    expect(await statusOf(await presentation(entry('/revocation', 'revocation', 7)))).toBe('status.revoked');
    expect(await statusOf(await presentation(entry('/suspension', 'suspension', 9)))).toBe('status.suspended');
    expect(await statusOf(await presentation([entry('/revocation', 'revocation', 8), entry('/suspension', 'suspension', 9)]))).toBe('status.suspended');
  });

  it('a status list secured as a JWT (vc+jwt) is verified and read the same way', async () => {
    server.set('/jwt', await statusListJwt('/jwt', 'revocation', [11]));
    expect(await statusOf(await presentation(entry('/jwt', 'revocation', 11)))).toBe('status.revoked');
    expect(await statusOf(await presentation(entry('/jwt', 'revocation', 12)))).toMatchObject({ status: 'valid' });
  });

  it('StatusList2021 (the predecessor) is read too', async () => {
    server.set('/legacy', await statusListCredential('/legacy', 'revocation', [5], { legacy: true }));
    const context = ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2', STATUS_LIST_2021];
    expect(await statusOf(await presentation(entry('/legacy', 'revocation', 5, 'StatusList2021Entry'), context))).toBe('status.revoked');
  });

  it('a list issued by another issuer, of another purpose, changed after signing, too short, or an index past its end: status.unavailable', async () => {
    server.set('/other-issuer', await statusListCredential('/other-issuer', 'revocation', [], { by: other }));
    server.set('/short', await statusListCredential('/short', 'revocation', [], { entries: 1024 }));
    const tampered = await statusListCredential('/tampered', 'revocation', [1]);
    (tampered.credentialSubject as Record<string, unknown>).encodedList = encodedList(bitstring([]));
    server.set('/tampered', tampered);
    server.set('/purpose', await statusListCredential('/purpose', 'suspension', []));
    for (const status of [entry('/other-issuer', 'revocation', 1), entry('/short', 'revocation', 1), entry('/tampered', 'revocation', 1), entry('/purpose', 'revocation', 1), entry('/valid', 'revocation', 131_072), entry('/missing', 'revocation', 1)]) {
      expect(await statusOf(await presentation(status)), JSON.stringify(status)).toBe('status.unavailable');
    }
  });

  it('the refresh purpose, entries wider than 8 bits, a wide StatusList2021 entry and unknown mechanisms fail closed as status.unsupported', async () => {
    expect(await statusOf(await presentation(entry('/valid', 'refresh', 1)))).toBe('status.unsupported');
    const messages = [0, 1, 2, 3].map((i) => ({ status: `0x${i}`, message: `m${i}` }));
    // The width is judged before the messages (512 of them would not fit the document limits).
    expect(await statusOf(await presentation({ ...entry('/valid', 'message', 1), statusSize: 9, statusMessage: messages }))).toBe('status.unsupported');
    const context = ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2', STATUS_LIST_2021];
    expect(await statusOf(await presentation({ ...entry('/valid', 'revocation', 5, 'StatusList2021Entry'), statusSize: 2, statusMessage: messages }, context))).toBe('status.unsupported');
    expect(await statusOf(await presentation(entry('/valid', 'revocation', 1, 'ExampleStatusEntry')))).toBe('status.unsupported');
  });

  describe('entries of several bits (statusSize) with their status messages', () => {
    // Bitstring Status List 1.0: statusSize bits per entry, statusMessage one message per value.
    const MESSAGES = [
      { status: '0x0', message: 'valid' },
      { status: '0x1', message: 'pending review' },
      { status: '0x2', message: 'under investigation' },
      { status: '0x3', message: 'withdrawn by the holder' },
    ];
    const wide = (path: string, purpose: string, index: number, extra: Record<string, unknown> = {}) => ({ ...entry(path, purpose, index), statusSize: 2, statusMessage: MESSAGES, ...extra });

    beforeAll(async () => {
      // Entries 4, 5 and 6 hold 1, 2 and 3; every other entry 0. Twice the 16 KB of one-bit lists.
      server.set('/messages', await statusListCredential('/messages', 'message', [], { bits: multiBitstring({ 4: 1, 5: 2, 6: 3 }, 2) }));
      server.set('/wide-revocation', await statusListCredential('/wide-revocation', 'revocation', [], { bits: multiBitstring({ 9: 2 }, 2) }));
      // 131,072 bits: enough for one-bit entries, half what two-bit entries need.
      server.set('/one-bit-long', await statusListCredential('/one-bit-long', 'message', [], { bits: multiBitstring({}, 1) }));
    });

    it('a message entry reports the status read from its two bits and its message, and is valid whatever the value', async () => {
      expect(await statusOf(await presentation(wide('/messages', 'message', 5)))).toEqual({ status: 'valid', uri: server.url('/messages'), idx: 5, purpose: 'message', type: 'BitstringStatusListEntry', size: 2, value: '0x2', message: 'under investigation' });
      expect(await statusOf(await presentation(wide('/messages', 'message', 6)))).toMatchObject({ value: '0x3', message: 'withdrawn by the holder' });
      expect(await statusOf(await presentation(wide('/messages', 'message', 7)))).toMatchObject({ value: '0x0', message: 'valid' });
    });

    it('a revocation entry of two bits is revoked by any non-zero status, the message in the detail', async () => {
      const vp = await presentation(wide('/wide-revocation', 'revocation', 9));
      const results: PolicyResult[] = await verifier().verify(verifyInput([parsed(vp)]), { signal: signal() });
      const status = results.find((r) => r.policy === 'status' && r.path.length > 2)!;
      expect(status.error).toMatchObject({ code: 'status.revoked', detail: 'Status 0x2: under investigation' });
      expect(await statusOf(await presentation(wide('/wide-revocation', 'revocation', 8)))).toMatchObject({ status: 'valid', value: '0x0' });
    });

    it('statusMessage missing, of the wrong length or with repeated or malformed statuses, a list too short for the entry size, or a non-integer size: status.unavailable', async () => {
      for (const status of [
        { ...entry('/messages', 'message', 5), statusSize: 2 },
        wide('/messages', 'message', 5, { statusMessage: MESSAGES.slice(0, 3) }),
        wide('/messages', 'message', 5, { statusMessage: [...MESSAGES.slice(0, 3), { status: '0x2', message: 'again' }] }),
        wide('/messages', 'message', 5, { statusMessage: [...MESSAGES.slice(0, 3), { status: '3', message: 'no prefix' }] }),
        wide('/one-bit-long', 'message', 5),
        { ...entry('/messages', 'message', 5), statusMessage: MESSAGES.slice(0, 2), statusSize: 0 },
        { ...entry('/messages', 'message', 5) },
      ]) {
        expect(await statusOf(await presentation(status)), JSON.stringify(status)).toBe('status.unavailable');
      }
    });
  });

  it('a list is fetched once and served from the cache until its ttl passes', async () => {
    server.set('/cached', await statusListCredential('/cached', 'revocation', [], { ttl: 60_000 }));
    const client = verifier();
    const vp = await presentation(entry('/cached', 'revocation', 2));
    await statusOf(vp, client);
    await statusOf(vp, client);
    expect(server.hits('/cached')).toBe(1);
    now += 61_000;
    await statusOf(vp, client);
    expect(server.hits('/cached')).toBe(2);
  });

  it('the fetch goes through the outbound policy: by default an http URL on a loopback address is refused', async () => {
    const strict = localVerifier({ trustAnchors: [] });
    expect(await statusOf(await presentation(entry('/valid', 'revocation', 4)), strict)).toBe('status.unavailable');
  });

  it('with status list checks disabled, the entry is reported unchecked', async () => {
    const off = localVerifier({ trustAnchors: [], statusList: { enabled: false } });
    expect(await statusOf(await presentation(entry('/valid', 'revocation', 4)), off)).toEqual({ checked: false, reason: 'status list checks are disabled' });
  });
});
