import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '@vp-authorizer/testing';
import { contractDcql, encryptWalletResponse, issueContractSdJwt } from '@vp-authorizer/testing/contracts';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';
import { PUBLIC_ORIGIN, startTwoServersOnRedis, type ServerProcess, type TwoServers } from './__fixtures__/two-servers-on-redis.js';

const url = redisUrlForTests('test/store/http-two-processes.test.ts');

describe.skipIf(url === undefined)('the HTTP flow across two server processes sharing one Redis', () => {
  let two: TwoServers | undefined;
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    two = await startTwoServersOnRedis(url!);
    servers = two.servers;
  });
  afterAll(async () => {
    await two?.close();
  });

  const on = (server: ServerProcess, publicUrl: string) => publicUrl.replace(`${PUBLIC_ORIGIN}/`, `${server.origin}/`);
  const api = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.origin}/authz/openid4/vp/v1_0${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json', ...init.headers },
    });

  it('created on one process, answered on the other, its response code resolved once on either', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];

    // 1. The relying party creates the authorization on A.
    const createRes = await api(a, '/authorizations', {
      method: 'POST',
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    expect(createRes.status).toBe(201);
    const created = (await createRes.json()) as { authorizationId: string; authorizeUrl: string };

    // 2. The wallet fetches the request object from B.
    const authorizeUrl = new URL(created.authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
    const requestUri = authorizeUrl.searchParams.get('request_uri')!;
    expect(requestUri.startsWith(`${PUBLIC_ORIGIN}/authz/`)).toBe(true);
    const requestObjectRes = await fetch(on(b, requestUri), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ wallet_nonce: 'wn-two-processes' }),
    });
    expect(requestObjectRes.status).toBe(200);
    const requestObject = await requestObjectRes.text();
    const claims = jwtPayload(requestObject) as { response_uri: string; state: string; wallet_nonce: string };
    expect(claims.wallet_nonce).toBe('wn-two-processes');
    expect(await (await api(a, `/authorizations/${created.authorizationId}/status`)).json()).toEqual({ status: 'pending' });

    // 3. The wallet posts its encrypted response to B.
    const response = await encryptWalletResponse(claims, { vp_token: { pid: [await issueContractSdJwt()] }, state: claims.state });
    const post = (target: ServerProcess) =>
      fetch(on(target, claims.response_uri), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ response }),
      });
    const answered = await post(b);
    expect(answered.status).toBe(200);
    const { redirect_uri } = (await answered.json()) as { redirect_uri: string };
    const code = new URL(redirect_uri).searchParams.get('response_code')!;
    expect(await (await api(a, `/authorizations/${created.authorizationId}/status`)).json()).toEqual({ status: 'authorized' });

    // A replay of the same response on A is refused: the claim was taken on B.
    const replay = await post(a);
    expect(replay.status).toBe(400);

    // 4. The code (issued by B) resolves once, on A; then on neither.
    const resolve = (server: ServerProcess) => api(server, '/response-code/resolve', { method: 'POST', body: JSON.stringify({ response_code: code }) });
    const first = await resolve(a);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    expect((await resolve(b)).status).toBe(404);
    expect((await resolve(a)).status).toBe(404);

    // The state really lives in Redis, under the test prefix.
    expect(await two!.admin.exists(`${two!.keyPrefix}{a:main:${created.authorizationId}}`)).toBe(1);
  });

  it('the same wallet response posted concurrently to both processes: exactly one 200, one usable code', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const createRes = await api(a, '/authorizations', {
      method: 'POST',
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    expect(createRes.status).toBe(201);
    const { authorizationId, authorizeUrl } = (await createRes.json()) as { authorizationId: string; authorizeUrl: string };
    const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
    const requestObjectRes = await fetch(on(b, requestUri));
    expect(requestObjectRes.status).toBe(200);
    const requestObject = await requestObjectRes.text();
    const claims = jwtPayload(requestObject) as { response_uri: string; state: string };
    const response = await encryptWalletResponse(claims, { vp_token: { pid: [await issueContractSdJwt()] }, state: claims.state });

    const codeKeys = async () => (await two!.admin.keys(`${two!.keyPrefix}c:*`)).length;
    const codesBefore = await codeKeys();

    // Ten copies of one response, alternating A, B, A, …, all in flight at once.
    const targets = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b));
    const answers = await Promise.all(
      targets.map(async (target) => {
        const res = await fetch(on(target, claims.response_uri), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ response }),
        });
        return { target, status: res.status, body: (await res.json()) as { redirect_uri?: string; error?: string } };
      }),
    );
    const won = answers.filter((x) => x.status === 200);
    const lost = answers.filter((x) => x.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost.map((x) => x.status)).toEqual(Array(9).fill(400));
    // Only the winner was handed a code; the losers got an OAuth error and nothing to redeem.
    for (const x of lost) {
      expect(x.body.redirect_uri).toBeUndefined();
      expect(x.body.error).toEqual(expect.any(String));
    }
    const code = new URL(won[0]!.body.redirect_uri!).searchParams.get('response_code')!;
    expect(code).toBeTruthy();
    // One code was stored in Redis, not one per process or per request.
    expect((await codeKeys()) - codesBefore).toBe(1);

    // The first result stands, seen from both processes.
    for (const server of servers) expect(await (await api(server, `/authorizations/${authorizationId}/status`)).json()).toEqual({ status: 'authorized' });

    // Exactly one usable code: it resolves once (on the process that did not issue it), then never again.
    const issuer = won[0]!.target;
    const other = issuer === a ? b : a;
    const resolve = (server: ServerProcess) => api(server, '/response-code/resolve', { method: 'POST', body: JSON.stringify({ response_code: code }) });
    const first = await resolve(other);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ authorization_id: authorizationId, status: 'authorized' });
    expect((await resolve(issuer)).status).toBe(404);
    expect((await resolve(other)).status).toBe(404);
  });
});

function jwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
