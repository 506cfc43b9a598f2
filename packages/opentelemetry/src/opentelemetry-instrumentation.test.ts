import { SpanStatusCode, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { METRICS } from './metric-names.js';
import { openTelemetryInstrumentation } from './opentelemetry-instrumentation.js';

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter();
const reader = new CollectingReader();
const instrumentation = openTelemetryInstrumentation({
  tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  meterProvider: new MeterProvider({ readers: [reader] }),
});
const request = { method: 'POST', header: () => null };

beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());
beforeEach(() => spans.reset());

async function points(name: string) {
  const { resourceMetrics } = await reader.collect();
  return (resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name)?.dataPoints ?? []) as DataPoint<number | Histogram>[];
}

describe('openTelemetryInstrumentation', () => {
  it('a validator or verifier call that could not run is an error span and an `error` policy outcome', async () => {
    await instrumentation.request(request, async () =>
      instrumentation.step('verify', {}, async (span) => {
        span.setAttributes({ 'vp.policy.outcome': 'error', 'vp.policy.code': 'verify.unexpected_error', 'vp.policy.reason': 'service.timeout' });
      }),
    );
    const verify = spans.getFinishedSpans().find((s) => s.name === 'vp.verify')!;
    expect(verify.status.code).toBe(SpanStatusCode.ERROR);
    expect(verify.attributes['vp.policy.reason']).toBe('service.timeout');
    const histogram = (await points(METRICS.policyDuration.name)).find((p) => p.attributes['vp.policy'] === 'verify' && p.attributes['vp.policy.outcome'] === 'error');
    expect((histogram?.value as Histogram).count).toBe(1);
  });

  it('a step that throws rethrows unchanged, marks its span and the request span with the error type only', async () => {
    const failure = Object.assign(new Error('secret-in-a-message'), { code: 'store.unavailable' });
    const thrown = await instrumentation
      .request(request, async (span) => {
        span.route({ operationId: 'createAuthorization', path: '/openid4/vp/v1_0/authorizations' });
        return instrumentation.step('store', { 'vp.store.operation': 'create' }, async () => {
          throw failure;
        });
      })
      .catch((error: unknown) => error);
    expect(thrown).toBe(failure);
    const [store, root] = spans.getFinishedSpans();
    expect(store!.name).toBe('vp.store.create');
    expect(store!.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    for (const span of [store!, root!]) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
      expect(span.attributes['error.type']).toBe('store.unavailable');
      expect(JSON.stringify({ attributes: span.attributes, events: span.events, status: span.status })).not.toContain('secret-in-a-message');
    }
    const errors = await points(METRICS.storeErrors.name);
    expect(errors.find((p) => p.attributes['vp.store.operation'] === 'create')?.value).toBe(1);
  });

  it('decision attributes land on the active request span and count by status', async () => {
    await instrumentation.request(request, async () => {
      instrumentation.decision({ instanceId: 'main', status: 'error', code: 'verify.unexpected_error' });
    });
    const [root] = spans.getFinishedSpans();
    expect(root!.attributes).toMatchObject({ 'vp.instance_id': 'main', 'vp.authorization.status': 'error', 'vp.policy.code': 'verify.unexpected_error' });
    const decisions = await points(METRICS.decisions.name);
    expect(decisions.find((p) => p.attributes['vp.authorization.status'] === 'error')?.value).toBe(1);
    // The code is a span attribute only: wallet error codes are open-ended, metric attributes must not be.
    expect(decisions.every((p) => !('vp.policy.code' in p.attributes))).toBe(true);
  });

  it('records known methods as they are and any other as _OTHER, with the original on the span only', async () => {
    const invented = ['FOO', 'BREW', 'get', 'X'.repeat(40)];
    for (const method of ['GET', 'DELETE', ...invented]) await instrumentation.request({ method, header: () => null }, async () => undefined);
    const finished = spans.getFinishedSpans();
    expect(finished.map((s) => [s.name, s.attributes['http.request.method'], s.attributes['http.request.method_original']])).toEqual([
      ['GET', 'GET', undefined],
      ['DELETE', 'DELETE', undefined],
      ...invented.map((method) => ['HTTP', '_OTHER', method]),
    ]);
    const methods = new Set((await points(METRICS.requestDuration.name)).map((p) => p.attributes['http.request.method']));
    expect([...methods].sort()).toEqual(['DELETE', 'GET', 'POST', '_OTHER']);
    const other = (await points(METRICS.requestDuration.name)).find((p) => p.attributes['http.request.method'] === '_OTHER' && p.attributes['vp.operation'] === 'unmatched');
    expect((other?.value as Histogram).count).toBe(invented.length);
    expect((await points(METRICS.requestDuration.name)).every((p) => !('http.request.method_original' in p.attributes))).toBe(true);
  });
});
