// The webhook outbox in one process: two authorizers share a memoryStore(); the first queues
// webhooks while the receiver is down and closes (handing its deliveries back to the outbox); the
// second takes them over and delivers each, signed, under the same webhook-id, counting the
// attempts already made. A store without the outbox is refused when an instance has webhooks.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createAuthorizer,
  memoryStore,
  outboundFetchPolicy,
  passThroughValidator,
  passThroughVerifier,
  type Authorizer,
  type AuthorizerEvent,
  type AuthorizerOptions,
  type MemoryStore,
} from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { startWebhookReceiver, webhookSignatureProblem, type WebhookReceiver } from '@vp-authorizer/testing';
import { contractDcql } from '@vp-authorizer/testing/contracts';

const SECRET = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef-outbox-key').toString('base64');
const trusted = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true });

const authorizers: Authorizer[] = [];
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(authorizers.splice(0).map((a) => a.close()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function options(store: AuthorizerOptions['store'], url: string | undefined, events: AuthorizerEvent[] = []): Promise<AuthorizerOptions> {
  const { signing } = await generateDevSigningKey();
  return {
    publicBaseUrl: 'https://verifier.example/authz',
    sweepIntervalMs: 0,
    ...(store ? { store } : {}),
    claimLeaseMs: 300,
    onEvent: (event) => void events.push(event),
    webhookDelivery: { initialBackoffMs: 20, maxBackoffMs: 50, timeoutMs: 2_000, outbound: trusted },
    instances: [{ id: 'main', apiKeys: ['outbox-test-key-01'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), ...(url ? { webhooks: { url, secret: SECRET } } : {}) }],
  };
}

describe('webhooks kept in the store outlive the authorizer that queued them', () => {
  it('a closing authorizer hands its undelivered webhooks back; another one on the same store delivers each, same id, attempts counted on', async () => {
    let up = false;
    const hooks = await startWebhookReceiver(() => (up ? 200 : 503));
    receivers.push(hooks);
    const store: MemoryStore = memoryStore();
    const first = createAuthorizer(await options(store, hooks.url()));
    const secondEvents: AuthorizerEvent[] = [];
    const second = createAuthorizer(await options(store, hooks.url(), secondEvents));
    authorizers.push(second);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await first.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } })).authorizationId);
    // Each was attempted (and refused) at least twice by the first authorizer.
    await expect.poll(() => ids.every((id) => hooks.received.filter((r) => (r.json as { data: { authorizationId: string } }).data.authorizationId === id).length >= 2)).toBe(true);
    const sentByFirst = new Set(hooks.received.map((r) => String(r.headers['webhook-id'])));
    expect(sentByFirst.size).toBe(3);
    await first.close();
    expect(first.webhookStats()).toEqual({ queued: 0, inFlight: 0, timers: 0 });
    up = true;

    await expect.poll(() => secondEvents.filter((e) => e.type === 'webhook.delivered').length, { timeout: 5_000 }).toBe(3);
    const delivered = secondEvents.filter((e) => e.type === 'webhook.delivered') as Extract<AuthorizerEvent, { webhookId: string }>[];
    expect(new Set(delivered.map((e) => e.webhookId))).toEqual(sentByFirst);
    // The attempts the first one made are counted on (recorded in the outbox).
    for (const e of delivered) expect(e.attempt).toBeGreaterThanOrEqual(3);
    for (const r of hooks.received) expect(webhookSignatureProblem(SECRET, r.headers, r.body)).toBeNull();
    // Delivered once by the second, and gone from the outbox: nothing is left to take over.
    expect(await store.takeOverWebhooks(Date.now() + 60_000, { holder: 'probe', until: Date.now() + 120_000 }, 100)).toEqual([]);
  });
});

describe('a store without the webhook outbox', () => {
  // Everything a store needs but the outbox: the memory store's own methods, copied one by one.
  const withoutOutbox = (store: MemoryStore) => ({
    create: store.create,
    get: store.get,
    compareAndSet: store.compareAndSet,
    listDueForExpiry: store.listDueForExpiry,
    put: store.put,
    peek: store.peek,
    consume: store.consume,
  });

  it('is refused at construction when an instance has webhooks, with a message naming the outbox and the fix', async () => {
    const attempt = async () => createAuthorizer(await options(withoutOutbox(memoryStore({ sweepIntervalMs: 0 })), 'https://rp.example/hooks'));
    await expect(attempt()).rejects.toThrow(ConfigError);
    await expect(attempt()).rejects.toThrow(/"main" send status webhooks.*no outbox \(WebhookOutbox: addWebhook, renewWebhooks, takeOverWebhooks, recordWebhookAttempts, removeWebhook\).*redisStore\(\) or postgresStore\(\)/s);
  });

  it('is accepted when no instance has webhooks; one with part of the outbox is refused all the same, naming what is missing', async () => {
    const plain = withoutOutbox(memoryStore({ sweepIntervalMs: 0 }));
    authorizers.push(createAuthorizer(await options(plain, undefined)));
    const store = memoryStore({ sweepIntervalMs: 0 });
    const partial = { ...withoutOutbox(store), addWebhook: store.addWebhook, removeWebhook: store.removeWebhook };
    await expect((async () => createAuthorizer(await options(partial, undefined)))()).rejects.toThrow(/missing: renewWebhooks, takeOverWebhooks, recordWebhookAttempts/);
  });
});
