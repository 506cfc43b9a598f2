import { SpanKind, SpanStatusCode, context, metrics, propagation, trace, type Attributes, type MeterProvider, type Span, type TextMapGetter, type TracerProvider } from '@opentelemetry/api';
import type { DecisionTelemetry, Instrumentation, RequestSpan, RequestTelemetry, TelemetryAttributes, TelemetrySpan, TelemetryStep } from '@vp-authorizer/core';
import { METRICS } from './metric-names.js';

export interface OpenTelemetryOptions {
  /** Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
}

/** The instrumentation scope of every span and instrument. */
export const INSTRUMENTATION_SCOPE = '@vp-authorizer/opentelemetry';

const headerGetter: TextMapGetter<RequestTelemetry> = {
  keys: () => [],
  get: (request, key) => request.header(key) ?? undefined,
};

/**
 * The `instrumentation` option of `createAuthorizer` on the OpenTelemetry API: one SERVER span
 * per request named after the endpoint's operationId, INTERNAL child spans `vp.format`,
 * `vp.validate`, `vp.verify` and `vp.store.<operation>`, and the metrics of METRICS.
 *
 * Children find their request span through the active context, so a context manager must be
 * registered (the Node SDK and `NodeTracerProvider.register()` do). A request that arrives
 * without an active span continues the trace of its `traceparent` header through the global
 * propagator (none is registered by default).
 */
export function openTelemetryInstrumentation(options: OpenTelemetryOptions = {}): Instrumentation {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const requestDuration = meter.createHistogram(METRICS.requestDuration.name, { unit: METRICS.requestDuration.unit, description: METRICS.requestDuration.description });
  const decisions = meter.createCounter(METRICS.decisions.name, { unit: METRICS.decisions.unit, description: METRICS.decisions.description });
  const policyDuration = meter.createHistogram(METRICS.policyDuration.name, { unit: 's', description: METRICS.policyDuration.description });
  const storeDuration = meter.createHistogram(METRICS.storeDuration.name, { unit: 's', description: METRICS.storeDuration.description });
  const storeErrors = meter.createCounter(METRICS.storeErrors.name, { unit: METRICS.storeErrors.unit, description: METRICS.storeErrors.description });

  return {
    request<T>(request: RequestTelemetry, run: (span: RequestSpan) => Promise<T>): Promise<T> {
      const active = context.active();
      // Under an HTTP server instrumentation the request already has a span: nest under it.
      const parent = trace.getSpan(active) ? active : propagation.extract(active, request, headerGetter);
      const method = KNOWN_METHODS.has(request.method) ? request.method : OTHER_METHOD;
      const methodAttributes: Attributes = method === request.method ? { 'http.request.method': method } : { 'http.request.method': method, 'http.request.method_original': request.method };
      // Semantic conventions: a span of an unknown method is named `HTTP`.
      const span = tracer.startSpan(method === OTHER_METHOD ? 'HTTP' : method, { kind: SpanKind.SERVER, attributes: methodAttributes }, parent);
      const started = performance.now();
      let operation = 'unmatched';
      let status = 0;
      const handle: RequestSpan = {
        setAttributes: (attributes) => span.setAttributes(attributes),
        route(route) {
          operation = route.operationId;
          span.updateName(route.operationId);
          span.setAttributes({ 'vp.operation': route.operationId, 'http.route': route.path });
        },
        answered(answered, code) {
          status = answered;
          span.setAttribute('http.response.status_code', answered);
          if (code !== undefined) span.setAttribute('vp.error.code', code);
          // Server spans: 4xx is the client's doing, not an error of this service.
          if (answered >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        },
      };
      return context.with(trace.setSpan(parent, span), async () => {
        try {
          return await run(handle);
        } catch (error) {
          failed(span, error);
          throw error;
        } finally {
          span.end();
          requestDuration.record(seconds(started), { 'vp.operation': operation, 'http.request.method': method, 'http.response.status_code': status });
        }
      });
    },

    step<T>(step: TelemetryStep, attributes: TelemetryAttributes, run: (span: TelemetrySpan) => Promise<T>): Promise<T> {
      const operation = step === 'store' ? String(attributes['vp.store.operation'] ?? 'unknown') : undefined;
      const span = tracer.startSpan(operation ? `vp.store.${operation}` : `vp.${step}`, { kind: SpanKind.INTERNAL, attributes });
      const written: TelemetryAttributes = { ...attributes };
      const handle: TelemetrySpan = {
        setAttributes(more) {
          Object.assign(written, more);
          span.setAttributes(more);
        },
      };
      const started = performance.now();
      return context.with(trace.setSpan(context.active(), span), async () => {
        let errorType: string | undefined;
        try {
          return await run(handle);
        } catch (error) {
          errorType = failed(span, error);
          throw error;
        } finally {
          const duration = seconds(started);
          if (operation) {
            storeDuration.record(duration, { 'vp.store.operation': operation });
            if (errorType) storeErrors.add(1, { 'vp.store.operation': operation, 'error.type': errorType });
          } else {
            const outcome = errorType ? 'error' : String(written['vp.policy.outcome'] ?? 'passed');
            // A policy that failed is an answer; one that could not run (timeout, service down) is an error.
            if (outcome === 'error' && !errorType) span.setStatus({ code: SpanStatusCode.ERROR });
            policyDuration.record(duration, { 'vp.policy': step, 'vp.policy.outcome': outcome });
          }
          span.end();
        }
      });
    },

    decision(decision: DecisionTelemetry): void {
      const attributes: Attributes = { 'vp.instance_id': decision.instanceId, 'vp.authorization.status': decision.status };
      decisions.add(1, attributes);
      // Called inside the request that delivered the response: its span is the active one.
      trace.getActiveSpan()?.setAttributes({ ...attributes, ...(decision.code ? { 'vp.policy.code': decision.code } : {}) });
    },
  };
}

/**
 * The methods of the HTTP semantic conventions recorded as they are; any other (made up by a
 * client, or not in upper case) is `_OTHER`, with the original on the span only, so that a client
 * cannot create metric series at will.
 */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT']);
const OTHER_METHOD = '_OTHER';

const seconds = (started: number) => (performance.now() - started) / 1000;

/**
 * Marks the span failed with the error's stable kind only. The message is not recorded: errors
 * from in-process clients or custom stores may carry anything.
 */
function failed(span: Span, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' && code.length <= 64 ? code : error instanceof Error ? error.name : typeof error;
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR });
  return type;
}
