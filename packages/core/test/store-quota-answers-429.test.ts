// An instance that has used up its share of the memory store gets 429 with Retry-After on create:
// its own volume, not a fault of the server (503 would tell load balancers the process is down).
// Everything else keeps working, for it and for the other instances.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '@vp-authorizer/core';
import { OTHER_KEY, createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

describe('an instance over its memory-store quota', () => {
  it('gets 429 store.quota_exceeded with Retry-After on create; reads, readiness and other instances are unaffected', async () => {
    env = await startAuthorizer({ store: memoryStore({ sweepIntervalMs: 0, maxRecordsPerInstance: 2 }) });
    const first = await createDcqlAuthorization(env.api);
    expect(first.res.status).toBe(201);
    expect((await createDcqlAuthorization(env.api)).res.status).toBe(201);

    const refused = await createDcqlAuthorization(env.api);
    expect(refused.res.status).toBe(429);
    expect(refused.json).toMatchObject({ type: 'store.quota_exceeded', status: 429 });
    expect(refused.res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);

    const status = await env.api(`/openid4/vp/v1_0/authorizations/${first.json.authorizationId}/status`);
    expect(await status.json()).toEqual({ status: 'created' });
    expect((await fetch(`${env.base}/health/ready`)).status).toBeLessThan(300);
    const elsewhere = await env.api('/openid4/vp/v1_0/authorizations', {
      method: 'POST',
      key: OTHER_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
    });
    expect(elsewhere.status).toBe(201);
  });
});
