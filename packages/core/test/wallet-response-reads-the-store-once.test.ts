import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, type AuthorizerStore } from '@vp-authorizer/core';
import { createDcqlAuthorization, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

/** The memory store, counting its reads. */
function countingStore() {
  const reads: string[] = [];
  const inner = memoryStore({ sweepIntervalMs: 0 });
  const store: AuthorizerStore = {
    ...inner,
    get: (instanceId, id) => (reads.push('get'), inner.get(instanceId, id)),
    getInAny: (instanceIds, id) => (reads.push(`getInAny(${instanceIds.length})`), inner.getInAny!(instanceIds, id)),
  };
  return { store, reads };
}

describe('a wallet response reads its record once, whatever the number of instances', () => {
  it('direct_post with two instances configured: one getInAny over both, no get', async () => {
    const { store, reads } = countingStore();
    env = await startAuthorizer({ store });
    const { json } = await createDcqlAuthorization(env.api, { responseMode: 'direct_post' });
    const claims = decodeJwt((await fetchRequestObject(json.authorizeUrl!)).jwt) as Record<string, string>;
    reads.length = 0;
    const res = await fetch(claims.response_uri!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ vp_token: JSON.stringify({ pid: [await makeSdJwt()] }), state: claims.state! }),
    });
    expect(res.status).toBe(200);
    expect(reads).toEqual(['getInAny(2)']);
  });
});
