import { type OutboundLookup, outboundFetchPolicy } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import * as v from 'valibot';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pinnedRequest } from '../../../core/src/outbound/pinned-request.js';
import { didJwk } from '../__fixtures__/did-keys.js';
import { resolveDidKey } from './resolve-did-key.js';

// The transport is replaced: the test proves the refusal happens before any connection, and no
// connection to a private address can be opened even if the policy regressed.
vi.mock('../../../core/src/outbound/pinned-request.js', () => ({ pinnedRequest: vi.fn() }));

const did = 'did:web:wallet-chosen.example:internal:admin';
const resolvesTo = (address: string) => vi.fn<OutboundLookup>(async () => [{ address, family: address.includes(':') ? 6 : 4 }]);
const resolve = (lookup: OutboundLookup) =>
  resolveDidKey({ did }, 'assertionMethod', {
    didMethods: v.parse(didMethodsConfigSchema, { methods: { web: { enabled: true } } }),
    outbound: outboundFetchPolicy({ lookup }),
    timeoutMs: 1_000,
    maxBytes: 10_000,
    signal: new AbortController().signal,
  });

beforeEach(() => vi.mocked(pinnedRequest).mockReset());

describe('did:web refuses names that resolve to non-public addresses', () => {
  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '::ffff:127.0.0.1', 'fd00::1', '100.64.0.1', '::1'])('did:web refuses a name that resolves to %s', async (address) => {
    const lookup = resolvesTo(address);
    const failure = (await resolve(lookup).then(() => undefined, (e: unknown) => e)) as Error;
    expect(failure).toMatchObject({ code: 'did.resolution_failed', message: 'The did:web document could not be fetched' });
    // The answer is generic: the refused address is not echoed to whoever chose the DID.
    expect(failure.message).not.toContain(address);
    expect(lookup).toHaveBeenCalledWith('wallet-chosen.example');
    expect(pinnedRequest).not.toHaveBeenCalled();
  });

  it('resolves the same did:web when the name resolves to a public address, fetching the path the DID names', async () => {
    const key = await didJwk();
    const doc = { id: did, verificationMethod: [{ id: '#k1', type: 'JsonWebKey2020', controller: did, publicKeyJwk: key.publicJwk }], assertionMethod: ['#k1'] };
    vi.mocked(pinnedRequest).mockResolvedValue({ status: 200, body: new TextEncoder().encode(JSON.stringify(doc)), contentType: 'application/did+json' });
    const resolved = await resolve(resolvesTo('93.184.215.14'));
    expect(resolved.keyId).toBe(`${did}#k1`);
    expect(vi.mocked(pinnedRequest).mock.calls[0]![0].href).toBe('https://wallet-chosen.example/internal/admin/did.json');
    expect(vi.mocked(pinnedRequest).mock.calls[0]![1]).toEqual({ address: '93.184.215.14', family: 4 });
  });
});
