// An authorization no wallet ever fetched has no outcome to read later: it is kept until it
// expires (and long enough after for the sweep to announce `authorization.expired`), not for the
// retention (24 h by default) that serves the results of answered ones. A create that nobody
// follows up, from a retry loop or a careless client, then costs the store minutes, not a day.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, type AuthorizerEvent } from '@vp-authorizer/core';
import { manualClock } from './__fixtures__/manual-clock.js';
import { createDcqlAuthorization, fetchRequestObject, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('authorizations never fetched by a wallet', () => {
  it('leave the store a minute after they expire (once the sweep could announce it); fetched ones keep the retention', async () => {
    const clock = manualClock();
    const store = memoryStore({ clock, sweepIntervalMs: 0 });
    const events: AuthorizerEvent[] = [];
    env = await startAuthorizer({ clock, store, onEvent: (event) => void events.push(event) });
    const status = async (id: string) => {
      const res = await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`);
      return res.status === 200 ? ((await res.json()) as { status: string }).status : res.status;
    };

    const unfetched = (await createDcqlAuthorization(env.api)).json;
    const fetched = (await createDcqlAuthorization(env.api)).json;
    expect((await fetchRequestObject(fetched.authorizeUrl!)).res.status).toBe(200);

    // Expired: the sweep announces it, and a poll reads `expired`, for a minute.
    clock.advance(5 * MINUTE);
    expect(await env.authorizer.sweepExpired()).toBe(2);
    expect(events.filter((e) => e.type === 'authorization.expired').map((e) => (e as { authorizationId: string }).authorizationId).sort()).toEqual(
      [unfetched.authorizationId, fetched.authorizationId].sort(),
    );
    clock.advance(MINUTE - 1);
    expect(await status(unfetched.authorizationId!)).toBe('expired');

    // Then it is gone; the fetched one is kept for the retention.
    clock.advance(1);
    expect(await status(unfetched.authorizationId!)).toBe(404);
    expect(store.usage('main').records).toBe(1);
    clock.advance(23 * HOUR);
    expect(await status(fetched.authorizationId!)).toBe('expired');
  });

  it('a wallet fetching at the last moment gives the authorization the full retention', async () => {
    const clock = manualClock();
    env = await startAuthorizer({ clock, store: memoryStore({ clock, sweepIntervalMs: 0 }) });
    const late = (await createDcqlAuthorization(env.api)).json;
    clock.advance(5 * MINUTE - 1);
    expect((await fetchRequestObject(late.authorizeUrl!)).res.status).toBe(200);
    clock.advance(20 * HOUR);
    const res = await env.api(`/openid4/vp/v1_0/authorizations/${late.authorizationId}/status`);
    expect(await res.json()).toEqual({ status: 'expired' });
  });
});
