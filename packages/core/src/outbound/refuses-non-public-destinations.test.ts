import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboundLookup } from './outbound-lookup.js';
import { outboundFetchPolicy, outboundGet, outboundPost, type OutboundFetchPolicy } from './outbound-fetch-policy.js';
import { pinnedRequest } from './pinned-request.js';

// The transport is replaced: a refused destination must never reach it, and no test here may
// open a connection to a private address even if the policy were broken.
vi.mock('./pinned-request.js', () => ({ pinnedRequest: vi.fn(async () => ({ status: 200, body: new TextEncoder().encode('ok'), contentType: 'text/plain' })) }));

const resolvesTo = (...addresses: string[]) => {
  const lookup = vi.fn<OutboundLookup>(async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  return lookup;
};
const get = (url: string, policy: OutboundFetchPolicy) => outboundGet(url, { accept: '*/*', timeoutMs: 1_000, maxBytes: 1_000, signal: new AbortController().signal }, policy);

beforeEach(() => vi.mocked(pinnedRequest).mockClear());

describe('outbound fetch policy: destinations', () => {
  it.each([['127.0.0.1'], ['10.0.0.1'], ['169.254.169.254'], ['::ffff:127.0.0.1'], ['fd00::1'], ['::1'], ['64:ff9b::a9fe:a9fe'], ['93.184.215.14', '10.0.0.1']])(
    'refuses a name that resolves to %s (SSRF through DNS)',
    async (...addresses) => {
      const lookup = resolvesTo(...addresses);
      await expect(get('https://evil.example/x', outboundFetchPolicy({ lookup }))).rejects.toMatchObject({ name: 'OutboundFetchError', reason: 'destination' });
      expect(lookup).toHaveBeenCalledWith('evil.example');
      expect(pinnedRequest).not.toHaveBeenCalled();
    },
  );

  it('fetches a name whose every address is public, pinned to the first one', async () => {
    const lookup = resolvesTo('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
    const response = await get('https://good.example/doc', outboundFetchPolicy({ lookup }));
    expect(new TextDecoder().decode(response.body)).toBe('ok');
    expect(pinnedRequest).toHaveBeenCalledOnce();
    expect(vi.mocked(pinnedRequest).mock.calls[0]![0].href).toBe('https://good.example/doc');
    expect(vi.mocked(pinnedRequest).mock.calls[0]![1]).toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('refuses a name that does not resolve', async () => {
    await expect(get('https://nothing.example/', outboundFetchPolicy({ lookup: resolvesTo() }))).rejects.toMatchObject({ reason: 'network' });
    const failing = outboundFetchPolicy({ lookup: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
    await expect(get('https://nothing.example/', failing)).rejects.toMatchObject({ reason: 'network', message: 'the request failed' });
    expect(pinnedRequest).not.toHaveBeenCalled();
  });

  it.each([
    'http://good.example/',
    'https://good.example:8443/',
    'https://good.example:443x/',
    'ftp://good.example/',
    'file:///etc/passwd',
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://[::1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://localhost/',
    'https://api.localhost./',
    'https://intranet/',
    'https://user:secret@good.example/',
    'not a url',
  ])('refuses %s before resolving anything', async (url) => {
    const lookup = resolvesTo('93.184.215.14');
    await expect(get(url, outboundFetchPolicy({ lookup }))).rejects.toMatchObject({ reason: 'destination' });
    expect(lookup).not.toHaveBeenCalled();
    expect(pinnedRequest).not.toHaveBeenCalled();
  });

  it('checks the URL but leaves addresses to a caller-supplied fetch (documented: no pinning on that path)', async () => {
    const lookup = resolvesTo('10.0.0.1');
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('doc'));
    await expect(get('https://127.0.0.1/', outboundFetchPolicy({ lookup, fetch }))).rejects.toMatchObject({ reason: 'destination' });
    expect(fetch).not.toHaveBeenCalled();
    expect(new TextDecoder().decode((await get('https://good.example/', outboundFetchPolicy({ lookup, fetch }))).body)).toBe('doc');
    expect(fetch.mock.calls[0]![1]).toMatchObject({ redirect: 'manual' });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('dangerouslyAllowAnyDestination turns the destination checks off (tests only)', async () => {
    const lookup = resolvesTo('10.0.0.1');
    const policy = outboundFetchPolicy({ lookup, dangerouslyAllowAnyDestination: true });
    await get('http://internal.example:8080/', policy);
    expect(vi.mocked(pinnedRequest).mock.calls[0]![1]).toEqual({ address: '10.0.0.1', family: 4 });
    await get('http://127.0.0.1:8080/', policy);
    expect(vi.mocked(pinnedRequest).mock.calls[1]![1]).toEqual({ address: '127.0.0.1', family: 4 });
    expect(lookup).toHaveBeenCalledOnce(); // an IP literal needs no lookup
    await expect(get('file:///etc/passwd', policy)).rejects.toMatchObject({ reason: 'destination' });
  });

  it('applies the same destination checks to a POST (webhook deliveries), sending nothing when refused', async () => {
    const post = (url: string, policy: OutboundFetchPolicy) =>
      outboundPost(url, { contentType: 'application/json', headers: {}, body: new TextEncoder().encode('{}'), timeoutMs: 1_000, maxBytes: 1_000, signal: new AbortController().signal }, policy);
    await expect(post('https://hooks.example/x', outboundFetchPolicy({ lookup: resolvesTo('169.254.169.254') }))).rejects.toMatchObject({ reason: 'destination' });
    await expect(post('http://127.0.0.1:9/x', outboundFetchPolicy({ lookup: resolvesTo('93.184.215.14') }))).rejects.toMatchObject({ reason: 'destination' });
    expect(pinnedRequest).not.toHaveBeenCalled();
    await post('https://hooks.example/x', outboundFetchPolicy({ lookup: resolvesTo('93.184.215.14') }));
    expect(vi.mocked(pinnedRequest).mock.calls[0]![1]).toEqual({ address: '93.184.215.14', family: 4 });
    expect(vi.mocked(pinnedRequest).mock.calls[0]![2]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
  });
});
