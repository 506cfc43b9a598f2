// The pool's bounds on a fake session layer (numbers for sessions): a token call that never
// returns keeps its session, and while every session is held so, signatures are refused at once.
import { describe, expect, it } from 'vitest';
import { createSessionPool } from './session-pool.js';

function pool(size: number, maxQueue = 16) {
  let next = 1;
  const closed: number[] = [];
  const p = createSessionPool<number>({ size, maxQueue, openSession: () => next++, closeSession: (s) => void closed.push(s) });
  return { p, closed };
}
const settled = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('the PKCS#11 session pool', () => {
  it('opens at most size sessions and queues the rest until one comes back', async () => {
    const { p } = pool(2);
    const a = await p.acquire();
    const b = await p.acquire();
    const waiting = p.acquire();
    expect(await settled(waiting)).toBe('pending');
    p.release(a);
    expect(await waiting).toBe(a);
    expect(p.open).toBe(2);
    p.release(b);
  });

  it('refuses at once, and fails the queue at once, while every session waits for a call the token does not answer', async () => {
    const { p } = pool(2);
    const a = await p.acquire();
    const b = await p.acquire();
    const queued = p.acquire();
    p.hung(a);
    // One session still works: the queue waits for it.
    expect(await settled(queued)).toBe('pending');
    p.hung(b);
    await expect(queued).rejects.toThrow('all 2 PKCS#11 sessions wait for calls the token has not answered');
    await expect(p.acquire()).rejects.toThrow('wait for calls the token has not answered');
    // The hung sessions (and the threads in their calls) are still counted: nothing new is opened.
    expect(p.open).toBe(2);
    expect(p.hungCount).toBe(2);
  });

  it('takes signatures again once a hung call returns, on a fresh session', async () => {
    const { p, closed } = pool(2);
    const a = await p.acquire();
    const b = await p.acquire();
    p.hung(a);
    p.hung(b);
    await expect(p.acquire()).rejects.toThrow('not answered');
    p.discard(a); // the call came back after all: its session is closed, not reused
    expect(closed).toEqual([a]);
    expect(p.hungCount).toBe(1);
    const c = await p.acquire();
    expect(c).not.toBe(a);
    expect(p.open).toBe(2);
  });

  it('hands a queued signature a fresh session when the session it waited for is discarded', async () => {
    const { p } = pool(1);
    const a = await p.acquire();
    const waiting = p.acquire();
    p.discard(a);
    expect(await waiting).not.toBe(a);
  });

  it('drains without waiting for hung calls, and tells when the last one returned', async () => {
    const { p, closed } = pool(3);
    const a = await p.acquire();
    const b = await p.acquire();
    const c = await p.acquire();
    p.release(c);
    p.hung(a);
    const drained = p.drain();
    expect(await settled(drained)).toBe('pending'); // b is borrowed and not hung
    p.release(b);
    await drained;
    expect(closed).toEqual([c, b]);
    const empty = p.whenEmpty();
    expect(await settled(empty)).toBe('pending');
    p.discard(a);
    await empty;
    expect(p.open).toBe(0);
    await expect(p.acquire()).rejects.toThrow('closed');
  });

  it('refuses beyond maxQueue at once', async () => {
    const { p } = pool(1, 1);
    await p.acquire();
    void p.acquire();
    await expect(p.acquire()).rejects.toThrow('1 signatures wait already');
  });
});
