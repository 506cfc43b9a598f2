// What tracing, metrics and logging cost per request, measured in one process on the built
// packages (`pnpm -r --filter './packages/**' run build` first): `node bench/tools/instrumentation-overhead.mjs`.
//
// The same authorizer configuration is measured bare (the baseline: no logger, no
// instrumentation), with a logger that drops every line, with an instrumentation whose calls do
// nothing, with @vp-authorizer/opentelemetry on the API's no-op providers (installed, no SDK), and
// with it on the SDK (in-memory span exporter, a metric reader). Two paths: `GET /health`
// (routing and answer only) and `GET …/status` (API key check and one store read).
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAuthorizer, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { openTelemetryInstrumentation } from '@vp-authorizer/opentelemetry';
import { performance } from 'node:perf_hooks';
import { ratio } from '../lib/measure.mjs';

/** One markdown table row: a variant's median time per request, and its ratio to the first. */
const row = (result, baseline) =>
  `| ${result.name} | ${(result.medianMsPerOp * 1000).toFixed(1)} µs | ${Math.round(result.opsPerSecond).toLocaleString('en-US')} | ${baseline ? `${ratio(result, baseline).toFixed(2)}×` : 'baseline'} |`;

const iterations = Number(process.env.BENCH_ITERATIONS ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const API_KEY = 'bench-api-key-0123456789';

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  async onForceFlush() {}
  async onShutdown() {}
}

const { signing } = await generateDevSigningKey();
const base = (extra) =>
  createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'bench', apiKeys: [API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
    ...extra,
  });

const spans = new InMemorySpanExporter();
const noop = {
  request: (_request, run) => run({ setAttributes() {}, route() {}, answered() {} }),
  step: (_step, _attributes, run) => run({ setAttributes() {} }),
  decision() {},
};
const drop = () => undefined;
const sdk = () =>
  openTelemetryInstrumentation({
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
    meterProvider: new MeterProvider({ readers: [new CollectingReader()] }),
  });

/** Measures each variant on both paths; the first variant is the baseline of its table. */
async function compare(title, variants) {
  const authorizers = variants.map(([name, extra]) => [name, base(extra)]);
  const created = await Promise.all(
    authorizers.map(([, authorizer]) => authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } })),
  );
  for (const [label, path] of [
    ['GET /health', () => '/health'],
    ['GET …/status', (i) => `/openid4/vp/v1_0/authorizations/${created[i].authorizationId}/status`],
  ]) {
    const runs = authorizers.map(([, authorizer], i) => {
      const url = `https://verifier.example${path(i)}`;
      const headers = { authorization: `Bearer ${API_KEY}` };
      return async () => {
        const response = await authorizer.fetch(new Request(url, { headers }));
        await response.arrayBuffer();
        spans.reset();
      };
    });
    // Rounds interleave the variants, so that a noisy neighbour slows all of them alike.
    const perRound = runs.map(() => []);
    for (let round = -1; round < rounds; round++) {
      for (const [v, run] of runs.entries()) {
        const start = performance.now();
        for (let i = 0; i < iterations; i++) await run();
        if (round >= 0) perRound[v].push((performance.now() - start) / iterations); // round -1 warms up
      }
    }
    const results = perRound.map((times, v) => {
      const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
      return { name: authorizers[v][0], iterations, rounds, medianMsPerOp: median, opsPerSecond: 1000 / median };
    });
    console.log(`\n${title}: ${label} (median of ${rounds} rounds × ${iterations})\n\n| variant | per request | requests/s | vs first |\n|---|---|---|---|`);
    for (const result of results) console.log(row(result, result === results[0] ? undefined : results[0]));
  }
  await Promise.all(authorizers.map(([, authorizer]) => authorizer.close()));
}

await compare('Without a context manager', [
  ['bare (no logger, no instrumentation)', {}],
  ['logger that drops every line (debug on)', { logger: { debug: drop, info: drop, warn: drop, error: drop } }],
  ['no-op Instrumentation object', { instrumentation: noop }],
  ['@vp-authorizer/opentelemetry, API without SDK', { instrumentation: openTelemetryInstrumentation() }],
]);
// A context manager (AsyncLocalStorage) costs every promise of the process, instrumented or not.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
await compare('With AsyncLocalStorageContextManager', [
  ['bare (no logger, no instrumentation)', {}],
  ['@vp-authorizer/opentelemetry on the SDK (in-memory spans, metric reader)', { instrumentation: sdk() }],
]);
