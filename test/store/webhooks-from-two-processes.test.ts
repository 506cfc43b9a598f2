// With two processes on one Redis, each status change is delivered once, by the process whose
// write stored it: a flow whose steps land on different processes reaches the receiver as one
// series of distinct webhook ids (ordered per process only: each process orders what it sends).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY, startWebhookReceiver, webhookSignatureProblem, type WebhookReceiver } from '@vp-authorizer/testing';
import { contractDcql, encryptWalletResponse, issueContractSdJwt } from '@vp-authorizer/testing/contracts';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';
import { PUBLIC_ORIGIN, startTwoServersOnRedis, type ServerProcess, type TwoServers } from './__fixtures__/two-servers-on-redis.js';

const url = redisUrlForTests('test/store/webhooks-from-two-processes.test.ts');
const SECRET = 'two-processes-webhook-secret-0123456789';

describe.skipIf(url === undefined)('status webhooks from two processes sharing one Redis', () => {
  let two: TwoServers | undefined;
  let hooks: WebhookReceiver | undefined;
  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    two = await startTwoServersOnRedis(url!, { webhooks: { url: hooks.url('/two'), secret: SECRET } });
  });
  afterAll(async () => {
    await two?.close();
    await hooks?.close();
  });

  const on = (server: ServerProcess, publicUrl: string) => publicUrl.replace(`${PUBLIC_ORIGIN}/`, `${server.origin}/`);
  const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { response_uri: string; state: string };

  /** Create on `creator`, fetch the request object from `fetcher`, answer on `answerer`. */
  async function flow(creator: ServerProcess, fetcher: ServerProcess, answerer: ServerProcess): Promise<string> {
    const res = await fetch(`${creator.origin}/authz/openid4/vp/v1_0/authorizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    expect(res.status).toBe(201);
    const { authorizationId, authorizeUrl } = (await res.json()) as { authorizationId: string; authorizeUrl: string };
    const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
    const requestObject = await (await fetch(on(fetcher, requestUri))).text();
    const claims = payload(requestObject);
    const response = await encryptWalletResponse(claims, { vp_token: { pid: [await issueContractSdJwt()] }, state: claims.state });
    const answered = await fetch(on(answerer, claims.response_uri), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    expect(answered.status).toBe(200);
    return authorizationId;
  }

  it('delivers each change once, whichever process made it', async () => {
    const [a, b] = two!.servers as [ServerProcess, ServerProcess];
    const first = await flow(a, b, a);
    const second = await flow(b, a, b);
    const received = await hooks!.waitFor(8);
    const ids = received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(8);
    const typesOf = (id: string) =>
      received.map((r) => r.json as { type: string; data: { authorizationId: string } }).filter((m) => m.data.authorizationId === id).map((m) => m.type);
    const series = ['authorization.created', 'authorization.pending', 'authorization.processing', 'authorization.authorized'];
    expect(typesOf(first).sort()).toEqual(series.slice().sort());
    expect(typesOf(second).sort()).toEqual(series.slice().sort());
    for (const r of received) expect(webhookSignatureProblem(SECRET, r.headers, r.body)).toBeNull();
  });
});
