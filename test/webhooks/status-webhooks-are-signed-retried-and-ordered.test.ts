// Status webhooks against a real receiver on 127.0.0.1: signed (checked with an independent HMAC
// implementation), retried with the same id after a failure, delivered in order, per-request
// URLs, refused destinations, a hanging receiver, the queue bound and its fairness between
// instances, and close().
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createAuthorizer,
  outboundFetchPolicy,
  passThroughValidator,
  passThroughVerifier,
  type Authorizer,
  type AuthorizerEvent,
  type AuthorizerOptions,
  type InstanceOptions,
} from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { startWebhookReceiver, webhookSignatureProblem, type WebhookReceiver } from '@vp-authorizer/testing';
import { contractDcql, issueContractSdJwt } from '@vp-authorizer/testing/contracts';

const SECRET = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef-webhook-key').toString('base64');
const OTHER_SECRET = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef-other-key').toString('base64');
const TOKEN = 'per-request-token-5d1f';
const trusted = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true });

let authorizer: Authorizer | undefined;
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await authorizer?.close();
  authorizer = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: Parameters<typeof startWebhookReceiver>[0]) {
  const r = await startWebhookReceiver(answer);
  receivers.push(r);
  return r;
}

interface Setup {
  webhooks?: InstanceOptions['webhooks'];
  delivery?: AuthorizerOptions['webhookDelivery'];
}

async function start({ webhooks, delivery }: Setup) {
  const { signing } = await generateDevSigningKey();
  const events: AuthorizerEvent[] = [];
  const logs: unknown[] = [];
  const log = (fields: Record<string, unknown>, message?: string) => void logs.push({ fields, message });
  authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example/authz',
    sweepIntervalMs: 0,
    onEvent: (event) => void events.push(event),
    logger: { debug: log, info: log, warn: log, error: log },
    webhookDelivery: { initialBackoffMs: 20, maxBackoffMs: 100, timeoutMs: 2_000, outbound: trusted, ...delivery },
    instances: [{ id: 'main', apiKeys: ['webhook-test-key-01'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), ...(webhooks ? { webhooks } : {}) }],
  });
  return { authorizer, events, logs };
}

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** created → pending (request object fetched) → processing → authorized, over the typed methods. */
async function runFlow(a: Authorizer, extra: Record<string, unknown> = {}) {
  const created = (await a.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql }, ...extra })) as { authorizationId: string };
  const requestObject = await a.getRequestObject(created.authorizationId);
  const state = String(payloadOf(requestObject).state);
  await a.submitWalletResponse(created.authorizationId, 'direct_post', { vp_token: JSON.stringify({ pid: [await issueContractSdJwt()] }), state });
  return created.authorizationId;
}

const webhookEvents = (events: AuthorizerEvent[]) => events.filter((e) => e.type.startsWith('webhook.')) as Extract<AuthorizerEvent, { webhookId: string }>[];
const FLOW = ['authorization.created', 'authorization.pending', 'authorization.processing', 'authorization.authorized'];

describe('status webhooks', () => {
  it('retries a failed delivery with the same id, signs every attempt, and delivers the statuses in order', async () => {
    const hooks = await receiver((n) => (n === 0 ? 500 : 200));
    const { authorizer: a, events } = await start({ webhooks: { url: hooks.url('/instance'), secret: SECRET } });
    const id = await runFlow(a);
    // The decision is stored and answered whatever the receiver does.
    expect(await a.getStatus('main', id)).toEqual({ status: 'authorized' });

    const received = await hooks.waitFor(5);
    const [failed, ...delivered] = received;
    expect(failed!.answer).toBe(500);
    expect(delivered.map((r) => r.answer)).toEqual([200, 200, 200, 200]);
    // The first change failed once and was sent again with the same id and the same body.
    expect(delivered[0]!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(delivered[0]!.body.equals(failed!.body)).toBe(true);
    expect(new Set(delivered.map((r) => r.headers['webhook-id'])).size).toBe(4);
    expect(delivered.map((r) => (r.json as { type: string }).type)).toEqual(FLOW);
    expect(delivered.map((r) => r.json)).toEqual([
      { type: 'authorization.created', timestamp: expect.any(String), data: { authorizationId: id, instanceId: 'main', status: 'created' } },
      { type: 'authorization.pending', timestamp: expect.any(String), data: { authorizationId: id, instanceId: 'main', status: 'pending', previousStatus: 'created' } },
      { type: 'authorization.processing', timestamp: expect.any(String), data: { authorizationId: id, instanceId: 'main', status: 'pending', processing: true } },
      { type: 'authorization.authorized', timestamp: expect.any(String), data: { authorizationId: id, instanceId: 'main', status: 'authorized', previousStatus: 'pending' } },
    ]);
    for (const r of received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(webhookSignatureProblem(SECRET, r.headers, r.body)).toBeNull();
      // Another key, or a body changed by one byte, does not verify.
      expect(webhookSignatureProblem(OTHER_SECRET, r.headers, r.body)).toBe('no v1 signature matches');
      expect(webhookSignatureProblem(SECRET, r.headers, Buffer.concat([r.body, Buffer.from(' ')]))).toBe('no v1 signature matches');
    }
    const stamps = received.map((r) => Number(r.headers['webhook-timestamp']));
    for (const stamp of stamps) expect(Math.abs(stamp - Date.now() / 1000)).toBeLessThan(60);
    // A stale timestamp is refused by the receiver's check.
    expect(webhookSignatureProblem(SECRET, received[1]!.headers, received[1]!.body, { nowSeconds: stamps[1]! + 301 })).toBe('webhook-timestamp is outside the tolerance');

    await expect.poll(() => webhookEvents(events).filter((e) => e.type === 'webhook.delivered').length).toBe(4);
    const outcomes = webhookEvents(events).map((e) => [e.type, e.eventType, e.attempt, e.httpStatus, e.code]);
    expect(outcomes).toEqual([
      ['webhook.failed', 'authorization.created', 1, 500, 'outbound.http_status'],
      ['webhook.delivered', 'authorization.created', 2, 200, undefined],
      ['webhook.delivered', 'authorization.pending', 1, 200, undefined],
      ['webhook.delivered', 'authorization.processing', 1, 200, undefined],
      ['webhook.delivered', 'authorization.authorized', 1, 200, undefined],
    ]);
    expect(a.webhookStats()).toEqual({ queued: 0, inFlight: 0, timers: 0 });
  });

  it('sends to the URL a create request names instead of the instance URL, and logs neither URL nor secret', async () => {
    const instanceHooks = await receiver();
    const requestHooks = await receiver();
    const { authorizer: a, logs, events } = await start({ webhooks: { url: instanceHooks.url('/instance'), secret: SECRET } });
    const perRequestUrl = requestHooks.url(`/rp/hooks?token=${TOKEN}`);
    const id = await runFlow(a, { webhookUrl: perRequestUrl });
    const received = await requestHooks.waitFor(4);
    expect(received.map((r) => (r.json as { type: string; data: { authorizationId: string } }).data.authorizationId)).toEqual([id, id, id, id]);
    expect(received.map((r) => (r.json as { type: string }).type)).toEqual(FLOW);
    for (const r of received) expect(webhookSignatureProblem(SECRET, r.headers, r.body)).toBeNull();
    // Another authorization without webhookUrl still goes to the instance URL.
    await runFlow(a);
    await instanceHooks.waitFor(4);
    expect(requestHooks.received).toHaveLength(4);
    const written = JSON.stringify([logs, events]);
    expect(written).not.toContain(TOKEN);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(SECRET.slice(6));
  });

  it('refuses a webhookUrl outside the outbound policy, and one for an instance without webhooks, with a 400 code', async () => {
    const { authorizer: strict } = await start({ webhooks: { secret: SECRET }, delivery: { outbound: outboundFetchPolicy() } });
    const body = (webhookUrl: string) => ({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql }, webhookUrl });
    for (const url of ['http://127.0.0.1:9/hooks', 'https://10.0.0.1/hooks', 'https://localhost/hooks', 'https://rp.example:8443/hooks', 'https://user:pw@rp.example/hooks', 'not a url']) {
      await expect(strict.createAuthorization('main', body(url))).rejects.toMatchObject({ code: 'webhook.url_refused', status: 400, errors: [{ pointer: '/webhookUrl' }] });
    }
    // Over HTTP: a JSON 400 with the stable code; the URL is not echoed.
    const res = await strict.fetch(
      new Request('https://verifier.example/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { authorization: 'Bearer webhook-test-key-01', 'content-type': 'application/json' },
        body: JSON.stringify(body(`http://127.0.0.1:9/hooks?token=${TOKEN}`)),
      }),
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ type: 'webhook.url_refused', status: 400 });
    expect(text).not.toContain(TOKEN);
    await strict.close();

    const { authorizer: none } = await start({});
    await expect(none.createAuthorization('main', body('https://rp.example/hooks'))).rejects.toMatchObject({ code: 'webhook.not_configured', status: 400 });
  });

  it('refuses at startup an instance URL outside the policy and a secret under 32 bytes, naming the option but not the value', async () => {
    const { signing } = await generateDevSigningKey();
    const options = (webhooks: InstanceOptions['webhooks']): AuthorizerOptions => ({
      publicBaseUrl: 'https://verifier.example',
      instances: [{ id: 'main', apiKeys: ['webhook-test-key-01'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), webhooks }],
    });
    const failure = (webhooks: InstanceOptions['webhooks']) => {
      try {
        createAuthorizer(options(webhooks)).close();
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error('createAuthorizer accepted the options');
    };
    const refusedUrl = failure({ url: `http://127.0.0.1:9/hooks?token=${TOKEN}`, secret: SECRET });
    expect(refusedUrl).toBeInstanceOf(ConfigError);
    expect(refusedUrl.message).toContain('instances.0.webhooks.url');
    expect(refusedUrl.message).not.toContain(TOKEN);
    const shortSecret = 'short-secret-of-31-bytes-000000';
    const refusedSecret = failure({ url: 'https://rp.example/hooks', secret: shortSecret });
    expect(refusedSecret.message).toContain('instances.0.webhooks.secret');
    expect(refusedSecret.message).not.toContain(shortSecret);
    expect(failure({ secret: 'whsec_not base64!' }).message).toContain('webhooks.secret');
  });

  it('gives up at once on a name that resolves to a non-public address, and on 410 Gone', async () => {
    const toLoopback = outboundFetchPolicy({ lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const { authorizer: a, events } = await start({ webhooks: { url: 'https://hooks.rp.example/x', secret: SECRET }, delivery: { outbound: toLoopback } });
    await a.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } });
    await expect.poll(() => webhookEvents(events).map((e) => [e.type, e.attempt, e.code])).toEqual([['webhook.gave_up', 1, 'outbound.destination_refused']]);
    await a.close();

    const gone = await receiver(() => 410);
    const second = await start({ webhooks: { url: gone.url(), secret: SECRET }, delivery: { maxAttempts: 5 } });
    await second.authorizer.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } });
    await expect.poll(() => webhookEvents(second.events).map((e) => [e.type, e.attempt, e.httpStatus])).toEqual([['webhook.gave_up', 1, 410]]);
    expect(gone.received).toHaveLength(1);
  });

  it('bounds a hanging receiver by the attempt timeout, without holding up the flow, and gives up after maxAttempts', async () => {
    const hooks = await receiver(() => 'hang');
    const { authorizer: a, events } = await start({ webhooks: { url: hooks.url(), secret: SECRET }, delivery: { timeoutMs: 200, maxAttempts: 2 } });
    // Every status change is stored and answered while the receiver holds its first request open.
    const id = await runFlow(a);
    expect(await a.getStatus('main', id)).toEqual({ status: 'authorized' });
    await expect.poll(() => webhookEvents(events).find((e) => e.type === 'webhook.gave_up'), { timeout: 10_000 }).toBeDefined();
    const first = webhookEvents(events).filter((e) => e.eventType === 'authorization.created');
    expect(first.map((e) => [e.type, e.attempt, e.code])).toEqual([
      ['webhook.failed', 1, 'outbound.timeout'],
      ['webhook.gave_up', 2, 'outbound.timeout'],
    ]);
    expect(hooks.received.slice(0, 2).map((r) => r.headers['webhook-id'])).toEqual([first[0]!.webhookId, first[0]!.webhookId]);
  });

  it('holds at most maxQueued deliveries (dropping the oldest not in flight), and close() stops every timer and request', async () => {
    const hooks = await receiver(() => 'hang');
    const { authorizer: a, events } = await start({ webhooks: { url: hooks.url(), secret: SECRET }, delivery: { maxQueued: 2, maxConcurrent: 1, timeoutMs: 60_000 } });
    const create = async () => ((await a.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } })) as { authorizationId: string }).authorizationId;
    const first = await create();
    await hooks.waitFor(1);
    const second = await create();
    const third = await create();
    expect(a.webhookStats()).toEqual({ queued: 2, inFlight: 1, timers: 0 });
    expect(webhookEvents(events).map((e) => [e.type, e.authorizationId])).toEqual([['webhook.dropped', second]]);
    await a.close();
    expect(a.webhookStats()).toEqual({ queued: 0, inFlight: 0, timers: 0 });
    expect(webhookEvents(events).map((e) => [e.type, e.authorizationId])).toEqual([
      ['webhook.dropped', second],
      ['webhook.dropped', first],
      ['webhook.dropped', third],
    ]);
    expect(hooks.received).toHaveLength(1);
  });

  it("a relying party's per-request webhookUrl tarpit and flood neither drop nor hold up another instance's webhook", async () => {
    const tarpit = await receiver(() => 'hang');
    const victimHooks = await receiver();
    const { signing } = await generateDevSigningKey();
    const events: AuthorizerEvent[] = [];
    const instance = (id: string, key: string, url?: string): InstanceOptions => ({ id, apiKeys: [key], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), webhooks: { ...(url ? { url } : {}), secret: SECRET } });
    authorizer = createAuthorizer({
      publicBaseUrl: 'https://verifier.example/authz',
      sweepIntervalMs: 0,
      onEvent: (event) => void events.push(event),
      webhookDelivery: { maxQueued: 8, maxConcurrent: 2, maxAttempts: 1, timeoutMs: 1_000, outbound: trusted },
      instances: [instance('hostile', 'hostile-api-key-01'), instance('victim', 'victim-api-key-01', victimHooks.url())],
    });
    const a = authorizer;
    const create = (instanceId: string, extra: Record<string, unknown> = {}) => a.createAuthorization(instanceId, { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql }, ...extra });
    for (let i = 0; i < 4; i++) await create('hostile', { webhookUrl: tarpit.url(`/slow/${i}`) });
    await tarpit.waitFor(2);
    const victim = (await create('victim')) as { authorizationId: string };
    for (let i = 4; i < 20; i++) await create('hostile', { webhookUrl: tarpit.url(`/slow/${i}`) });

    await expect.poll(() => webhookEvents(events).filter((e) => e.instanceId === 'victim').map((e) => [e.type, e.authorizationId, e.attempt]), { timeout: 5_000 }).toEqual([['webhook.delivered', victim.authorizationId, 1]]);
    const deliveredAt = events.findIndex((e) => e.type === 'webhook.delivered');
    // It went out once a tarpit attempt in flight timed out, not after the hostile backlog.
    expect(events.slice(0, deliveredAt).filter((e) => e.type === 'webhook.gave_up').length).toBeLessThanOrEqual(2);
    expect(webhookEvents(events).filter((e) => e.type === 'webhook.dropped').every((e) => e.instanceId === 'hostile')).toBe(true);
    expect(victimHooks.received).toHaveLength(1);
  });

  it('close() clears the retry timer of a delivery waiting for its backoff', async () => {
    const hooks = await receiver(() => 503);
    const { authorizer: a, events } = await start({ webhooks: { url: hooks.url(), secret: SECRET }, delivery: { initialBackoffMs: 60_000, maxBackoffMs: 60_000 } });
    await a.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: contractDcql } });
    await expect.poll(() => webhookEvents(events).map((e) => e.type)).toEqual(['webhook.failed']);
    expect(a.webhookStats()).toEqual({ queued: 1, inFlight: 0, timers: 1 });
    await a.close();
    expect(a.webhookStats()).toEqual({ queued: 0, inFlight: 0, timers: 0 });
  });
});
