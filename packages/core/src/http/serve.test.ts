import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreHandler, CoreRequest } from '../wire/core-request.js';
import { pathBelowMount, pathBelowSegments, serve, type BridgedRequest } from './serve.js';

const request = (path: string, read: () => Promise<CoreRequest>, method = 'POST', clientGone = false): BridgedRequest => ({
  method,
  path,
  read,
  clientWentAway: () => clientGone,
});
const core = (path: string): CoreRequest => ({ method: 'POST', path, query: new URLSearchParams(), headers: new Headers() });
const handler = (handle: CoreHandler['handle']): CoreHandler => ({ handle, bodyLimitBytes: 1024 });
const ok = handler(async () => ({ status: 200, headers: [], body: '{}' }));

describe('serve', () => {
  it('answers a refused body on a wallet path OAuth-style and elsewhere in the relying-party format, closing after a 413', async () => {
    const tooLarge = async (): Promise<CoreRequest> => {
      throw new AuthorizerError('request.body_too_large');
    };
    const wallet = await serve(ok, request('/openid4/vp/v1_0/abc/direct_post.jwt', tooLarge));
    expect(wallet.response.status).toBe(413);
    expect(JSON.parse(wallet.response.body!)).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    expect(wallet.response.headers).toContainEqual(['connection', 'close']);
    const rp = await serve(ok, request('/openid4/vp/v1_0/authorizations', tooLarge));
    expect(JSON.parse(rp.response.body!)).toMatchObject({ type: 'request.body_too_large', status: 413 });
    expect(wallet.failure).toBeUndefined();
  });

  it('reports an unexpected error once, to onError and as the failure, with a 500 that reveals nothing', async () => {
    const seen: unknown[] = [];
    const bug = new Error('secret detail');
    const twice = handler(async (_r, options) => {
      options?.onError?.(bug);
      options?.onError?.(bug);
      return { status: 500, headers: [], body: '{}' };
    });
    const served = await serve(twice, request('/x', async () => core('/x')), { onError: (e) => seen.push(e) });
    expect(seen).toEqual([bug]);
    expect(served.failure).toEqual({ error: bug });

    const broken = await serve(ok, request('/x', async () => Promise.reject(bug)), { onError: (e) => seen.push(e) });
    expect(broken.response.status).toBe(500);
    expect(broken.response.body).not.toContain('secret');
    expect(broken.failure).toEqual({ error: bug });
    expect(seen).toEqual([bug, bug]);
  });

  it('does not report refusals or a client that went away', async () => {
    const seen: unknown[] = [];
    const refused = await serve(ok, request('/x', async () => Promise.reject(new AuthorizerError('request.invalid_body'))), { onError: (e) => seen.push(e) });
    expect(refused.response.status).toBe(400);
    const gone = await serve(ok, request('/x', async () => Promise.reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 'POST', true), { onError: (e) => seen.push(e) });
    expect(gone.failure).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it('answers a failed HEAD without a body', async () => {
    const served = await serve(ok, request('/x', async () => Promise.reject(new AuthorizerError('request.route_not_found')), 'HEAD'));
    expect(served.response.status).toBe(404);
    expect(served.response.body).toBeUndefined();
  });

  it('keeps a host reporter that throws from leaving the request unanswered', async () => {
    const served = await serve(ok, request('/x', async () => Promise.reject(new Error('bug'))), {
      onError: () => {
        throw new Error('reporter down');
      },
    });
    expect(served.response.status).toBe(500);
  });
});

describe('paths below the mount', () => {
  it('strips a mount prefix only at a segment boundary', () => {
    expect(pathBelowMount('/authz/echo', '/authz')).toBe('/echo');
    expect(pathBelowMount('/authz', '/authz')).toBe('/');
    expect(pathBelowMount('/authzx/echo', '/authz')).toBeNull();
    expect(pathBelowMount('/elsewhere', '/authz')).toBeNull();
    expect(pathBelowMount('/echo', '')).toBe('/echo');
  });

  it('drops the segments a router matched, whatever their spelling, and the query', () => {
    expect(pathBelowSegments('/authz/echo?x=1', 1)).toBe('/echo');
    expect(pathBelowSegments('/%61uthz/echo', 1)).toBe('/echo');
    expect(pathBelowSegments('/tenants/t1/authz/a/b', 3)).toBe('/a/b');
    expect(pathBelowSegments('/authz', 1)).toBe('/');
    expect(pathBelowSegments('/authz/', 1)).toBe('/');
    expect(pathBelowSegments('/echo?x', 0)).toBe('/echo');
  });
});
