import { describe, expect, it } from 'vitest';
import { callClient, ClientDeadlines } from './call-client.js';

const ok = (path: string[]) => [{ path, policy: 'proof', service: 'verifier', data: {} }];
const never = () => new Promise<never>(() => {});

describe('client calls of one evaluation share their deadline', () => {
  it('gives calls with the same limit one signal, and calls with another limit their own', () => {
    const deadlines = new ClientDeadlines();
    const a = deadlines.for(1000);
    const b = deadlines.for(1000);
    const c = deadlines.for(2000);
    expect(a.signal).toBe(b.signal);
    expect(c.signal).not.toBe(a.signal);
    deadlines.clear();
  });

  it('answers the call that finished and times out the one that hangs, each under its own label', async () => {
    const deadlines = new ClientDeadlines();
    let seen: AbortSignal | undefined;
    const [validated, verified] = await Promise.all([
      callClient('validate', 40, async () => ok(['vp']), [], deadlines),
      callClient(
        'verify',
        40,
        (signal) => {
          seen = signal;
          return never();
        },
        [],
        deadlines,
      ),
    ]);
    deadlines.clear();
    expect(validated).toEqual({ ok: true, results: ok(['vp']) });
    expect(verified.ok).toBe(false);
    if (verified.ok) return;
    expect(verified.failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.timeout' });
    expect(verified.failure.detail).toBe('The verify call did not finish within 40 ms.');
    // The client was told: its signal is aborted with the timeout as the reason.
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error).name).toBe('ClientTimeoutError');
  });

  it('leaves the signal alone when every call settled before the deadline was cleared', async () => {
    const deadlines = new ClientDeadlines();
    let seen: AbortSignal | undefined;
    const outcome = await callClient(
      'validate',
      20,
      async (signal) => {
        seen = signal;
        return ok(['vp']);
      },
      [],
      deadlines,
    );
    deadlines.clear();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(outcome.ok).toBe(true);
    expect(seen?.aborted).toBe(false);
  });

  it('turns a client that throws before returning a promise into a failure, not an exception', async () => {
    const outcome = await callClient('validate', 1000, () => {
      throw new TypeError('synchronous');
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatchObject({ reason: 'service.client_failed' });
    expect(outcome.failure.detail).not.toContain('synchronous');
  });

  it('times out a call without shared deadlines on its own', async () => {
    const outcome = await callClient('validate', 30, never);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatchObject({ code: 'validate.unexpected_error', reason: 'service.timeout' });
  });

  it('counts a client that settles from its own abort listener as timed out, whatever it settles with', async () => {
    const rejecting = await callClient('verify', 30, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))));
    expect(rejecting.ok).toBe(false);
    if (!rejecting.ok) expect(rejecting.failure).toMatchObject({ reason: 'service.timeout', detail: 'The verify call did not finish within 30 ms.' });
    const answering = await callClient('verify', 30, (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(ok(['vp'])))));
    expect(answering.ok).toBe(false);
    if (!answering.ok) expect(answering.failure).toMatchObject({ reason: 'service.timeout' });
  });

  it('never throws, even for a thrown value that throws when it is looked at', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    class Odd extends Error {
      override get name(): string {
        throw new Error('no name');
      }
    }
    for (const thrown of [proxy, new Odd('odd')]) {
      const outcome = await callClient('validate', 1000, async () => {
        throw thrown;
      });
      expect(outcome).toMatchObject({ ok: false, failure: { reason: 'service.client_failed' } });
    }
  });
});

