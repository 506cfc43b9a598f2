import { describe, expect, it } from 'vitest';
import type { CoreHandler } from '../wire/core-request.js';
import { fromFetchRequest } from './fetch-bridge.js';
import { serve } from './serve.js';

const handler: CoreHandler = { handle: async () => ({ status: 200, headers: [], body: '{}' }), bodyLimitBytes: 1024 };

/** A POST whose upload breaks after a few bytes, the way a Node request stream does when the client resets. */
function brokenUpload(error: Error): Request {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) return void ((sent = true), controller.enqueue(new TextEncoder().encode('state=aaaa')));
      controller.error(error);
    },
  });
  return new Request('http://localhost/authz/openid4/vp/v1_0/abc/direct_post', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    duplex: 'half',
  } as RequestInit);
}

// Regression: the fetch bridge took only `request.signal.aborted` as "the client went away", so
// on a host whose Request has no abort signal wired to the connection (the reference fetch
// target, custom node→fetch bridges) a client that reset mid-upload reached onError as a bug.
describe('fetch bridge: a client that aborts mid-upload', () => {
  for (const error of [Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), new TypeError('terminated')]) {
    it(`is not reported as a server error (${error.message})`, async () => {
      const seen: unknown[] = [];
      const served = await serve(handler, fromFetchRequest(brokenUpload(error), { basePath: '/authz' }), { onError: (e) => seen.push(e) });
      expect(seen).toEqual([]);
      expect(served.failure).toBeUndefined();
    });
  }

  it('still reports a fault of the authorizer itself', async () => {
    const seen: unknown[] = [];
    const bug = new Error('bug');
    const failing: CoreHandler = { handle: async () => Promise.reject(bug), bodyLimitBytes: 1024 };
    const request = new Request('http://localhost/authz/health');
    const served = await serve(failing, fromFetchRequest(request, { basePath: '/authz' }), { onError: (e) => seen.push(e) });
    expect(seen).toEqual([bug]);
    expect(served.response.status).toBe(500);
  });
});
