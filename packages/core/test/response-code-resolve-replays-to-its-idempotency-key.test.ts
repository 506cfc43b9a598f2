// A resolve whose answer was lost (the store ran the consume, its reply never came back) is
// retryable when it carried an Idempotency-Key: the same key within the window gets the same
// result once more; a caller with another key or none gets 404, so the result never reaches two callers.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, StoreUnavailableError, type MemoryStore } from '@vp-authorizer/core';
import { finishWithResponseCode } from './__fixtures__/finish-with-response-code.js';
import { manualClock } from './__fixtures__/manual-clock.js';
import { startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

/** A memory store whose next consume (or compare-and-set) is applied, then reported as failed: a lost reply. */
function lossyStore(clock: { now(): number }) {
  const inner: MemoryStore = memoryStore({ sweepIntervalMs: 0, clock });
  let lose: 'consume' | 'compareAndSet' | undefined;
  const store: MemoryStore = {
    ...inner,
    consume: async (key) => {
      const value = await inner.consume(key);
      if (lose === 'consume') {
        lose = undefined;
        throw new StoreUnavailableError('reply lost');
      }
      return value;
    },
    compareAndSet: async (next, expected, ttl) => {
      const ok = await (ttl === undefined ? inner.compareAndSet(next, expected) : inner.compareAndSet(next, expected, ttl));
      if (lose === 'compareAndSet' && next.responseCodeResolved) {
        lose = undefined;
        throw new StoreUnavailableError('reply lost');
      }
      return ok;
    },
  };
  return { store, loseNext: (call: 'consume' | 'compareAndSet') => void (lose = call) };
}

const resolve = (code: string, idempotencyKey?: string) =>
  env.api('/openid4/vp/v1_0/response-code/resolve', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}) },
    body: JSON.stringify({ response_code: code }),
  });

describe('resolve with an Idempotency-Key', () => {
  it('a lost consume reply → 503; the retry with the same key → the same 200; another key, no key, or the same key after 60 s → 404', async () => {
    const clock = manualClock();
    const lossy = lossyStore(clock);
    env = await startAuthorizer({ store: lossy.store, clock });
    const { id, code } = await finishWithResponseCode(env.api);
    lossy.loseNext('consume');
    const lost = await resolve(code, 'key-of-the-rp-0001');
    expect(lost.status).toBe(503);
    const retry = await resolve(code, 'key-of-the-rp-0001');
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ authorization_id: id, status: 'authorized' });
    expect((await resolve(code, 'key-of-someone-else')).status).toBe(404);
    expect((await resolve(code)).status).toBe(404);
    // Once more within the window (the retry's own answer may be lost too)…
    clock.advance(59_999);
    expect((await resolve(code, 'key-of-the-rp-0001')).status).toBe(200);
    // …never after it.
    clock.advance(1);
    expect((await resolve(code, 'key-of-the-rp-0001')).status).toBe(404);
  });

  it('a lost reply of the mark (the compare-and-set landed) → 503; the retry with the key finishes the resolve and consumes the code', async () => {
    const clock = manualClock();
    const lossy = lossyStore(clock);
    env = await startAuthorizer({ store: lossy.store, clock });
    const { id, code } = await finishWithResponseCode(env.api);
    lossy.loseNext('compareAndSet');
    expect((await resolve(code, 'key-0002-abcdefgh')).status).toBe(503);
    // Nobody else can take it meanwhile, with a key or without.
    expect((await resolve(code)).status).toBe(404);
    expect((await resolve(code, 'another-key-0002')).status).toBe(404);
    const retry = await resolve(code, 'key-0002-abcdefgh');
    expect(await retry.json()).toEqual({ authorization_id: id, status: 'authorized' });
    expect((await resolve(code)).status, 'the code is used up').toBe(404);
  });

  it('without a key a lost reply stays at most once: 503, then 404 (the documented case the key is for)', async () => {
    const clock = manualClock();
    const lossy = lossyStore(clock);
    env = await startAuthorizer({ store: lossy.store, clock });
    const { code } = await finishWithResponseCode(env.api);
    lossy.loseNext('consume');
    expect((await resolve(code)).status).toBe(503);
    expect((await resolve(code)).status).toBe(404);
  });

  it('30 racing resolves with 30 distinct keys: one 200, and only the winner\'s key is answered again', async () => {
    env = await startAuthorizer();
    const { id, code } = await finishWithResponseCode(env.api);
    const keys = Array.from({ length: 30 }, (_, i) => `racing-key-nr-${String(i).padStart(4, '0')}`);
    const statuses = await Promise.all(keys.map((key) => resolve(code, key).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(29);
    const winner = keys[statuses.indexOf(200)]!;
    const again = await Promise.all(keys.map((key) => resolve(code, key).then(async (r) => ({ key, status: r.status, body: r.status === 200 ? await r.json() : undefined }))));
    expect(again.filter((a) => a.status === 200)).toEqual([{ key: winner, status: 200, body: { authorization_id: id, status: 'authorized' } }]);
  });

  it('refuses a malformed key with 400 and resolves nothing', async () => {
    env = await startAuthorizer();
    const { code } = await finishWithResponseCode(env.api);
    const refused = await resolve(code, 'x'.repeat(256));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { type: string }).type).toContain('request.invalid_idempotency_key');
    // A short key (a counter) could be guessed by whoever learns the code: refused too.
    const short = await resolve(code, '1');
    expect(short.status).toBe(400);
    expect(((await short.json()) as { type: string }).type).toContain('request.invalid_idempotency_key');
    expect((await resolve(code, 'x'.repeat(15))).status).toBe(400);
    expect((await resolve(code)).status).toBe(200);
  });
});
