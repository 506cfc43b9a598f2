import type { AuthorizationStatus } from '../model/authorization-record.js';

/** Attribute values of spans and metrics. Never a secret, a nonce, a token or a request body. */
export type TelemetryAttributes = Record<string, string | number | boolean>;

/** The span of a request or a step, as far as the core writes to it. */
export interface TelemetrySpan {
  /** Adds attributes (the names are listed in docs/observability.md). */
  setAttributes(attributes: TelemetryAttributes): void;
}

/** What is known of a request before it is routed. */
export interface RequestTelemetry {
  method: string;
  /** Reads a request header (trace context propagation: `traceparent`, `tracestate`). */
  header(name: string): string | null;
}

/** What is known once the request matched an endpoint of the table. */
export interface RouteTelemetry {
  /** The endpoint's operationId (`createAuthorization`, `directPostJwt`, …). */
  operationId: string;
  /** The path template (`/openid4/vp/v1_0/{authorizationId}/direct_post.jwt`), never a path with ids. */
  path: string;
}

/**
 * The steps of a request that get their own span: the three policies and every store call.
 * Store steps carry `vp.store.operation` (`get`, `compareAndSet`, …).
 */
export type TelemetryStep = 'format' | 'validate' | 'verify' | 'store';

/** The outcome of one wallet response: the status the authorization ended with. */
export interface DecisionTelemetry {
  instanceId: string;
  status: Extract<AuthorizationStatus, 'authorized' | 'rejected' | 'error'>;
  /** The code of the first failure (a policy code), when the status is not `authorized`. */
  code?: string;
}

/**
 * Tracing and metrics hook (option `instrumentation`). The core calls it only when it is
 * configured: an authorizer without one pays nothing. `@vp-authorizer/opentelemetry` implements
 * it on the OpenTelemetry API; the core never imports OpenTelemetry.
 *
 * `request` and `step` wrap work: the implementation calls `run` exactly once and returns (or
 * rethrows) what it returns (or throws). Steps run inside their request's `run`, so an
 * implementation that tracks the active span (OpenTelemetry's context) makes them its children.
 */
export interface Instrumentation {
  /** One served request, from before routing to the answer. */
  request<T>(request: RequestTelemetry, run: (span: RequestSpan) => Promise<T>): Promise<T>;
  /** One step inside a request (or inside the expiry sweep for store steps). */
  step<T>(step: TelemetryStep, attributes: TelemetryAttributes, run: (span: TelemetrySpan) => Promise<T>): Promise<T>;
  /** A wallet response was decided (inside the request that delivered it). */
  decision(decision: DecisionTelemetry): void;
}

export interface RequestSpan extends TelemetrySpan {
  /** The request matched this endpoint (not called for 404/405). */
  route(route: RouteTelemetry): void;
  /** The answer, just before it is returned. */
  answered(status: number, code?: string): void;
}
