// @vp-authorizer/opentelemetry over real HTTP with the test wallet and local verification: the
// spans (names, parents, attributes) and the metrics (values) an OpenTelemetry SDK receives.
import { SpanKind, SpanStatusCode, context, propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { StoreUnavailableError, memoryStore, type AuthorizerStore } from '@vp-authorizer/core';
import { METRICS, openTelemetryInstrumentation } from '@vp-authorizer/opentelemetry';
import { createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type E2eEnvironment, PID_CLAIMS, PID_VCT, pidQuery, responseCodeOf, runRedirectFlow, startE2eEnvironment } from './e2e-harness.js';

/** Collects on demand (what a Prometheus scrape or a periodic exporter would read). */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncLocalStorageContextManager();

// A real memory store whose engine can be "cut" for the store-error case.
const inner = memoryStore({ sweepIntervalMs: 0 });
let storeDown = false;
const unlessDown =
  <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> =>
    storeDown ? Promise.reject(new StoreUnavailableError()) : call(...args);
const store: AuthorizerStore = {
  create: unlessDown(inner.create),
  get: unlessDown(inner.get),
  compareAndSet: unlessDown(inner.compareAndSet),
  listDueForExpiry: unlessDown(inner.listDueForExpiry),
  put: unlessDown(inner.put),
  peek: unlessDown(inner.peek),
  consume: unlessDown(inner.consume),
  ping: unlessDown(inner.ping!),
};

let env: E2eEnvironment;
beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  env = await startE2eEnvironment({ authorizer: { store, instrumentation: openTelemetryInstrumentation({ tracerProvider, meterProvider }) } });
});
afterAll(async () => {
  await env.close();
  inner.close();
  context.disable();
});

const haipPid = { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } };

const finished = () => spans.getFinishedSpans();
const childrenOf = (parent: ReadableSpan) => finished().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const only = (name: string) => {
  const found = finished().filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};

async function metric(name: string) {
  const { resourceMetrics } = await reader.collect();
  const found = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  return (found?.dataPoints ?? []) as DataPoint<number | Histogram>[];
}
const pointWith = (points: DataPoint<number | Histogram>[], attributes: Record<string, unknown>) => points.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));
const histogramCount = (point: DataPoint<number | Histogram> | undefined) => (point?.value as Histogram | undefined)?.count ?? 0;

describe('OpenTelemetry spans and metrics of a real authorization', () => {
  it('an authorized flow: one SERVER span per request named by operationId, policy and store spans as its children', async () => {
    spans.reset();
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, haipPid);
    expect(flow.status).toBe('authorized');
    expect((await env.rp.resolve(responseCodeOf(flow.result.body))).status).toBe(200);

    const requests = finished().filter((s) => s.kind === SpanKind.SERVER);
    const names = requests.map((s) => s.name);
    expect(names[0]).toBe('createAuthorization');
    expect(names).toContain('directPostJwt');
    expect(names).toContain('resolveResponseCode');
    expect(names.some((n) => n === 'getAuthorizationRequestJwt' || n === 'postAuthorizationRequestJwt')).toBe(true);
    // Each request is its own trace root here (no HTTP server instrumentation in front of it).
    expect(requests.every((s) => s.parentSpanContext === undefined)).toBe(true);

    const create = only('createAuthorization');
    expect(create.attributes).toMatchObject({
      'vp.operation': 'createAuthorization',
      'http.route': '/openid4/vp/v1_0/authorizations',
      'http.request.method': 'POST',
      'http.response.status_code': 201,
      'vp.instance_id': 'e2e',
    });
    expect(childrenOf(create).map((s) => s.name)).toContain('vp.store.create');

    const post = only('directPostJwt');
    expect(post.attributes).toMatchObject({
      'http.route': '/openid4/vp/v1_0/{authorizationId}/direct_post.jwt',
      'http.response.status_code': 200,
      'vp.instance_id': 'e2e',
      'vp.authorization.status': 'authorized',
    });
    expect(post.status.code).toBe(SpanStatusCode.UNSET);
    const children = childrenOf(post);
    const childNames = children.map((s) => s.name);
    for (const step of ['vp.format', 'vp.validate', 'vp.verify', 'vp.store.get', 'vp.store.compareAndSet', 'vp.store.put']) expect(childNames).toContain(step);
    expect(children.every((s) => s.spanContext().traceId === post.spanContext().traceId && s.kind === SpanKind.INTERNAL)).toBe(true);
    for (const policy of ['vp.format', 'vp.validate', 'vp.verify']) {
      expect(children.find((s) => s.name === policy)!.attributes['vp.policy.outcome']).toBe('passed');
    }
    expect(children.find((s) => s.name === 'vp.store.put')!.attributes['vp.store.operation']).toBe('put');
    expect(children.filter((s) => s.name === 'vp.store.compareAndSet')).toHaveLength(2);

    // Names and attributes carry no secret of the flow.
    const exported = JSON.stringify(finished().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })));
    const secrets = [API_KEY, flow.created.nonce, responseCodeOf(flow.result.body), flow.result.prepared.jwe!, flow.request.state ?? API_KEY];
    expect(secrets.filter((secret) => exported.includes(secret))).toEqual([]);
  });

  it('a rejected flow: the verify span says why, the request span carries the decision', async () => {
    spans.reset();
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, haipPid, { presentations: { pid: [{ credential: pid, tamper: { nonce: 'not-the-request-nonce' } }] } });
    expect(flow.status).toBe('rejected');

    const post = only('directPostJwt');
    expect(post.attributes).toMatchObject({ 'http.response.status_code': 400, 'vp.authorization.status': 'rejected', 'vp.policy.code': 'holder_binding.nonce_mismatch' });
    // A 4xx is the client's doing: the server span is not an error.
    expect(post.status.code).toBe(SpanStatusCode.UNSET);
    const verify = childrenOf(post).find((s) => s.name === 'vp.verify')!;
    expect(verify.attributes).toMatchObject({ 'vp.policy.outcome': 'failed', 'vp.policy.code': 'holder_binding.nonce_mismatch' });
    expect(verify.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a refused request carries its error code; an unknown path has a span named after its method', async () => {
    spans.reset();
    const refused = await fetch(`${env.baseUrl}/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { authorization: 'Bearer not-a-key', 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect((await fetch(`${env.baseUrl}/no/such/path`)).status).toBe(404);
    const [create, unknown] = finished();
    expect(create!.name).toBe('createAuthorization');
    expect(create!.attributes).toMatchObject({ 'http.response.status_code': 401, 'vp.error.code': 'auth.unauthorized' });
    expect(create!.attributes['vp.instance_id']).toBeUndefined();
    expect(unknown!.name).toBe('GET');
    expect(unknown!.attributes).toMatchObject({ 'http.response.status_code': 404, 'vp.error.code': 'request.route_not_found' });
  });

  it('a request carrying a traceparent continues that trace when a propagator is registered', async () => {
    spans.reset();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parentId = '00f067aa0ba902b7';
      const res = await fetch(`${env.baseUrl}/health`, { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
      expect(res.status).toBe(204);
    } finally {
      propagation.disable();
    }
    const health = only('getHealth');
    expect(health.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(health.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(health.parentSpanContext?.isRemote).toBe(true);
  });

  it('a store outage: the store span and the 503 request span are errors, and store errors are counted', async () => {
    spans.reset();
    const before = pointWith(await metric(METRICS.storeErrors.name), { 'vp.store.operation': 'get', 'error.type': 'store.unavailable' })?.value ?? 0;
    storeDown = true;
    try {
      const status = await fetch(`${env.baseUrl}/openid4/vp/v1_0/authorizations/AAAAAAAAAAAAAAAAAAAAAA/status`, { headers: { authorization: `Bearer ${API_KEY}` } });
      expect(status.status).toBe(503);
      expect((await fetch(`${env.baseUrl}/health/ready`)).status).toBe(503);
    } finally {
      storeDown = false;
    }
    const request = only('getAuthorizationStatus');
    expect(request.status.code).toBe(SpanStatusCode.ERROR);
    expect(request.attributes['vp.error.code']).toBe('store.unavailable');
    const get = childrenOf(request).find((s) => s.name === 'vp.store.get')!;
    expect(get.status.code).toBe(SpanStatusCode.ERROR);
    expect(get.attributes['error.type']).toBe('store.unavailable');
    expect(childrenOf(only('getReadiness')).map((s) => s.name)).toEqual(['vp.store.ping']);

    const errors = await metric(METRICS.storeErrors.name);
    expect(pointWith(errors, { 'vp.store.operation': 'get', 'error.type': 'store.unavailable' })?.value).toBe((before as number) + 1);
    expect(pointWith(errors, { 'vp.store.operation': 'ping', 'error.type': 'store.unavailable' })?.value).toBe(1);
  });

  it('metrics: decisions by status, policy latency histograms by outcome, request durations by operation', async () => {
    // Cumulative over the file: one authorized and one rejected decision so far.
    const decisions = await metric(METRICS.decisions.name);
    expect(pointWith(decisions, { 'vp.instance_id': 'e2e', 'vp.authorization.status': 'authorized' })?.value).toBe(1);
    expect(pointWith(decisions, { 'vp.instance_id': 'e2e', 'vp.authorization.status': 'rejected' })?.value).toBe(1);
    expect(pointWith(decisions, { 'vp.authorization.status': 'error' })).toBeUndefined();

    const policies = await metric(METRICS.policyDuration.name);
    expect(histogramCount(pointWith(policies, { 'vp.policy': 'format', 'vp.policy.outcome': 'passed' }))).toBe(2);
    expect(histogramCount(pointWith(policies, { 'vp.policy': 'validate', 'vp.policy.outcome': 'passed' }))).toBe(2);
    expect(histogramCount(pointWith(policies, { 'vp.policy': 'verify', 'vp.policy.outcome': 'passed' }))).toBe(1);
    expect(histogramCount(pointWith(policies, { 'vp.policy': 'verify', 'vp.policy.outcome': 'failed' }))).toBe(1);
    const verified = pointWith(policies, { 'vp.policy': 'verify', 'vp.policy.outcome': 'passed' })!.value as Histogram;
    expect(verified.sum).toBeGreaterThan(0);

    const requests = await metric(METRICS.requestDuration.name);
    expect(histogramCount(pointWith(requests, { 'vp.operation': 'directPostJwt', 'http.response.status_code': 200 }))).toBe(1);
    expect(histogramCount(pointWith(requests, { 'vp.operation': 'directPostJwt', 'http.response.status_code': 400 }))).toBe(1);
    expect(histogramCount(pointWith(requests, { 'vp.operation': 'createAuthorization', 'http.response.status_code': 401 }))).toBe(1);

    const storeCalls = await metric(METRICS.storeDuration.name);
    expect(histogramCount(pointWith(storeCalls, { 'vp.store.operation': 'create' }))).toBe(2);
    expect(histogramCount(pointWith(storeCalls, { 'vp.store.operation': 'consume' }))).toBe(1);
  });
});
