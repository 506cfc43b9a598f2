/**
 * Failing validator / verifier SERVICES (real HTTP servers on 127.0.0.1, reached through
 * httpValidatorClient / httpVerifierClient): whatever the service does, the wallet's response
 * ends the authorization `error` within the configured timeouts, never leaves it `pending`, is
 * never answered with a 5xx, names the reason in the policy response, and leaves no socket open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpValidatorClient, httpVerifierClient, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { startPassThroughAuthorizer } from '@vp-authorizer/testing';
import { contractDcql, issueContractSdJwt } from '@vp-authorizer/testing/contracts';
import { gzipBomb, startFaultService, type Fault, type FaultService } from './__fixtures__/fault-service.js';
import { activeHandleCounts, leakedHandles, pollUntil, postWalletResponse, prepareWalletResponse, readPolicyResponse, readStatus, type Api } from './__fixtures__/flow.js';

/** The client's own deadline for the whole call (every attempt and backoff). */
const CLIENT_TIMEOUT_MS = 700;
/** The authorizer's per-policy timeout (policies.*.timeoutMs), longer than the client's. */
const POLICY_TIMEOUT_MS = 1_500;
/** Slack for format parsing, store writes and scheduling on a loaded 2-core machine. */
const MARGIN_MS = 2_500;

type Reason = 'timeout' | 'unavailable' | 'bad_response';
interface Case {
  name: string;
  fault: Fault;
  reason: Reason;
  /** The HTTP status the service answered, which the reason should carry. */
  status?: number;
  /** Only for this service (docs/custom-clients.md: only the verifier must answer for every presentation). */
  only?: 'validator' | 'verifier';
}

const CASES: Case[] = [
  { name: 'hangs forever', fault: { kind: 'hang' }, reason: 'timeout' },
  { name: 'answers just past the client timeout', fault: { kind: 'slow-ok', delayMs: CLIENT_TIMEOUT_MS + 150 }, reason: 'timeout' },
  { name: 'resets the connection before any response', fault: { kind: 'reset-before-response' }, reason: 'unavailable' },
  { name: 'resets the connection right after the headers', fault: { kind: 'reset-after-headers' }, reason: 'unavailable' },
  { name: 'resets the connection mid-body', fault: { kind: 'reset-mid-body' }, reason: 'unavailable' },
  { name: 'answers 500', fault: { kind: 'status', status: 500 }, reason: 'unavailable', status: 500 },
  { name: 'answers 503 with Retry-After', fault: { kind: 'status', status: 503, retryAfter: '1' }, reason: 'unavailable', status: 503 },
  { name: 'answers 429 with a long Retry-After', fault: { kind: 'status', status: 429, retryAfter: '120' }, reason: 'unavailable', status: 429 },
  { name: 'answers 404', fault: { kind: 'status', status: 404 }, reason: 'bad_response', status: 404 },
  { name: 'answers 200 with a body that is not JSON', fault: { kind: 'not-json' }, reason: 'bad_response', status: 200 },
  { name: 'answers 200 with JSON of the wrong shape', fault: { kind: 'wrong-shape' }, reason: 'bad_response', status: 200 },
  { name: 'answers 200 with an empty results list', fault: { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"results":[]}' }, reason: 'bad_response' },
  { name: 'answers 200 with results that skip the presentation', fault: { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"results":[{"path":["other",0],"policy":"x","service":"verifier","data":{}}]}' }, reason: 'bad_response', only: 'verifier' },
  { name: 'answers a redirect (302) elsewhere', fault: { kind: 'raw', status: 302, headers: { location: 'http://127.0.0.1:9/steal' }, body: '' }, reason: 'bad_response', status: 302 },
  { name: 'trickles a valid body one byte at a time', fault: { kind: 'trickle', everyMs: 50 }, reason: 'timeout' },
  { name: 'answers a gzip body that inflates to 64 MB', fault: { kind: 'gzip-bomb', inflatedBytes: 64 * 1024 * 1024 }, reason: 'bad_response', status: 200 },
  { name: 'answers a 10 MB body (chunked, no length)', fault: { kind: 'huge', bytes: 10 * 1024 * 1024, declareLength: false }, reason: 'bad_response', status: 200 },
  { name: 'answers a 10 MB body (declared content-length)', fault: { kind: 'huge', bytes: 10 * 1024 * 1024, declareLength: true }, reason: 'bad_response', status: 200 },
];

const REASON_PATTERN: Record<Reason, RegExp> = {
  timeout: /timeout|timed out|did not finish|deadline/i,
  unavailable: /unavailable/i,
  bad_response: /bad[_ ]response/i,
};

let faultsInjected = 0;
gzipBomb(64 * 1024 * 1024);
const baseline = activeHandleCounts();
const services: FaultService[] = [];
const authorizers: { close(): Promise<void> }[] = [];

afterAll(async () => {
  await Promise.all(authorizers.map((a) => a.close()));
  await Promise.all(services.map((s) => s.close()));
  const leaked = await leakedHandles(baseline);
  console.log(`[faults] service faults injected: ${faultsInjected}; handles above baseline after close: ${JSON.stringify(leaked)}`);
  expect(leaked, 'sockets, servers or timers left open by the service-fault suite').toEqual({});
});

/** One failing result's serialized error members (wherever the implementation puts the reason). */
const errorTexts = (data: Record<string, unknown>[]) => data.filter((r) => r.error !== undefined).map((r) => JSON.stringify(r.error));

for (const role of ['verifier', 'validator'] as const) {
  describe(`a ${role} service that fails`, () => {
    let service: FaultService;
    let api: Api;
    const outcomes = new Map<string, { id: string }>();

    beforeAll(async () => {
      service = await startFaultService(role);
      services.push(service);
      const clientOptions = { url: service.url, timeoutMs: CLIENT_TIMEOUT_MS, retries: 1 };
      const env = await startPassThroughAuthorizer({
        instance: {
          validator: role === 'validator' ? httpValidatorClient(clientOptions) : passThroughValidator(),
          verifier: role === 'verifier' ? httpVerifierClient(clientOptions) : passThroughVerifier(),
          config: {
            openId4vp: { redirectUri: 'https://rp.example/callback' },
            policies: { validate: { timeoutMs: POLICY_TIMEOUT_MS }, verify: { timeoutMs: POLICY_TIMEOUT_MS } },
          },
        },
      });
      authorizers.push(env);
      api = env.api;
    });

    it('a healthy service authorizes (the harness itself works)', async () => {
      service.setFault({ kind: 'ok' });
      const prepared = await prepareWalletResponse(api);
      const answer = await postWalletResponse(prepared);
      expect(answer.status).toBe(200);
      expect((await readStatus(api, prepared.authorizationId)).body.status).toBe('authorized');
    });

    for (const c of CASES.filter((x) => x.only === undefined || x.only === role)) {
      it(`${c.name}: the authorization ends error within the timeout and the wallet gets no 5xx`, async () => {
        service.setFault(c.fault);
        faultsInjected++;
        const prepared = await prepareWalletResponse(api);
        const requestsBefore = service.requests;
        const answer = await postWalletResponse(prepared, { timeoutMs: POLICY_TIMEOUT_MS + MARGIN_MS + 5_000 });
        outcomes.set(c.name, { id: prepared.authorizationId });

        expect(service.requests, 'the service was really called').toBeGreaterThan(requestsBefore);
        expect(answer.status, `wallet answer ${JSON.stringify(answer.body)}`).toBeLessThan(500);
        expect(answer.ms, 'the wallet was answered within the policy timeout plus a margin').toBeLessThan(POLICY_TIMEOUT_MS + MARGIN_MS);
        const status = await readStatus(api, prepared.authorizationId);
        expect(status.code).toBe(200);
        expect(status.body.status).toBe('error');

        // A replay of the same response is refused with a 4xx and changes nothing.
        const replay = await postWalletResponse(prepared);
        expect(replay.status).toBeGreaterThanOrEqual(400);
        expect(replay.status).toBeLessThan(500);
        expect((await readStatus(api, prepared.authorizationId)).body.status).toBe('error');

        // An abandoned request must not keep its connection: the service side closes too.
        if (c.fault.kind === 'hang' || c.fault.kind === 'slow-ok' || c.fault.kind === 'trickle') {
          const closed = await pollUntil(async () => (service.inFlight() === 0 ? true : undefined), { timeoutMs: 5_000 });
          expect(closed, 'the hung request to the service was cancelled (its connection closed)').toBe(true);
        }
      });

      it(`${c.name}: the policy response names the reason (${c.reason}${c.status ? `, HTTP ${c.status}` : ''})`, async () => {
        const outcome = outcomes.get(c.name);
        expect(outcome, 'the flow test above ran').toBeDefined();
        const { code, data } = await readPolicyResponse(api, outcome!.id);
        expect(code).toBe(200);
        const errors = errorTexts(data);
        expect(errors.length, 'a failing policy result is recorded').toBeGreaterThan(0);
        expect(errors.some((text) => REASON_PATTERN[c.reason].test(text)), `reason ${c.reason} in ${JSON.stringify(errors)}`).toBe(true);
        if (c.status !== undefined) {
          // The fault service's problem body carries no status, so a status here was recorded by the authorizer.
          expect(errors.some((text) => new RegExp(`:\\s*${c.status}\\b`).test(text)), `HTTP ${c.status} in ${JSON.stringify(errors)}`).toBe(true);
        }
      });
    }
  });
}

describe('a verifier that outlives the policy timeout (client deadline longer than policies.verify.timeoutMs)', () => {
  it('ends error at the policy timeout, with a timeout reason, and the hung request is cancelled', async () => {
    const service = await startFaultService('verifier', { kind: 'hang' });
    services.push(service);
    const env = await startPassThroughAuthorizer({
      instance: {
        verifier: httpVerifierClient({ url: service.url, timeoutMs: 60_000, retries: 0 }),
        config: { openId4vp: { redirectUri: 'https://rp.example/callback' }, policies: { verify: { timeoutMs: 600 } } },
      },
    });
    authorizers.push(env);
    faultsInjected++;
    const prepared = await prepareWalletResponse(env.api);
    const answer = await postWalletResponse(prepared);
    expect(answer.status).toBeLessThan(500);
    expect(answer.ms).toBeLessThan(600 + MARGIN_MS);
    expect((await readStatus(env.api, prepared.authorizationId)).body.status).toBe('error');
    const errors = errorTexts((await readPolicyResponse(env.api, prepared.authorizationId)).data);
    expect(errors.some((t) => REASON_PATTERN.timeout.test(t)), JSON.stringify(errors)).toBe(true);
    const closed = await pollUntil(async () => (service.inFlight() === 0 ? true : undefined), { timeoutMs: 5_000 });
    expect(closed, 'the policy timeout aborted the request to the service').toBe(true);
  });
});

describe('the DC API route (the RP forwards the wallet answer) with a failing verifier service', () => {
  for (const fault of [{ kind: 'hang' }, { kind: 'status', status: 503 }, { kind: 'not-json' }] as Fault[]) {
    it(`verifier ${fault.kind}${fault.kind === 'status' ? ` ${fault.status}` : ''}: the RP is answered 200 with status error within the timeout, never 5xx`, async () => {
      const service = await startFaultService('verifier', fault);
      services.push(service);
      const env = await startPassThroughAuthorizer({
        instance: {
          verifier: httpVerifierClient({ url: service.url, timeoutMs: CLIENT_TIMEOUT_MS, retries: 1 }),
          config: { policies: { verify: { timeoutMs: POLICY_TIMEOUT_MS } } },
        },
      });
      authorizers.push(env);
      faultsInjected++;
      const created = await env.api('/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: contractDcql } }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { authorizationId } = (await created.json()) as { authorizationId: string };
      const started = Date.now();
      const res = await env.api(`/openid4/vp/v1_0/${authorizationId}/dc_api`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { pid: [await issueContractSdJwt()] } } }),
        signal: AbortSignal.timeout(POLICY_TIMEOUT_MS + MARGIN_MS + 5_000),
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.status).toBe('error');
      expect(Date.now() - started).toBeLessThan(POLICY_TIMEOUT_MS + MARGIN_MS);
      expect((await readStatus(env.api, authorizationId)).body.status).toBe('error');
    });
  }
});
