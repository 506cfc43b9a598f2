import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, StoreUnavailableError, type MemoryStore } from '@vp-authorizer/core';
import { finishWithResponseCode, resolveCode } from './__fixtures__/finish-with-response-code.js';
import { startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

type Method = 'peek' | 'get' | 'consume';

/** A memory store whose next call to `method` throws StoreUnavailableError once, when armed. */
function flakyStore() {
  const inner: MemoryStore = memoryStore({ sweepIntervalMs: 0 });
  let armed: Method | undefined;
  const once = <A extends unknown[], R>(method: Method, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (armed === method) {
        armed = undefined;
        throw new StoreUnavailableError();
      }
      return call(...args);
    };
  const store: MemoryStore = { ...inner, peek: once('peek', inner.peek), get: once('get', inner.get), consume: once('consume', inner.consume) };
  return { store, failNext: (method: Method) => void (armed = method) };
}

describe('resolving a response code is safe to retry after a store failure', () => {
  for (const method of ['get', 'peek', 'consume'] as const) {
    it(`the store's ${method} fails once during resolve → 503 with Retry-After; the retry → 200 with the authorization id`, async () => {
      const flaky = flakyStore();
      env = await startAuthorizer({ store: flaky.store });
      const { id, code } = await finishWithResponseCode(env.api);
      flaky.failNext(method);
      const failed = await resolveCode(env.api, { response_code: code });
      expect(failed.status).toBe(503);
      expect(failed.headers.get('retry-after')).not.toBeNull();
      const retry = await resolveCode(env.api, { response_code: code });
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ authorization_id: id, status: 'authorized' });
      // Still exactly once.
      expect((await resolveCode(env.api, { response_code: code })).status).toBe(404);
    });
  }

  it('a store failure while burning a mismatched code → 503; the retry refuses it again', async () => {
    const flaky = flakyStore();
    env = await startAuthorizer({ store: flaky.store });
    const first = await finishWithResponseCode(env.api);
    const second = await finishWithResponseCode(env.api);
    flaky.failNext('consume');
    expect((await resolveCode(env.api, { response_code: first.code, authorization_id: second.id })).status).toBe(503);
    expect((await resolveCode(env.api, { response_code: first.code, authorization_id: second.id })).status).toBe(400);
    expect((await resolveCode(env.api, { response_code: first.code, authorization_id: first.id })).status).toBe(404);
  });
});
