import type * as v from 'valibot';
import type { CoreRequest, CoreResponse } from '../wire/core-request.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';

/** Who may call an endpoint: RP endpoints need an API key; wallet endpoints answer OAuth-style errors. */
export type Audience = 'public' | 'rp' | 'wallet';

// Any valibot schema (sync); the generic keeps the table free of per-schema type noise.
export type AnySchema = v.GenericSchema;

export interface EndpointInput<B = unknown> {
  ctx: AuthorizerContext;
  request: CoreRequest;
  /** Path parameters in the order they appear in `path`, percent-decoded (validated by `pathParams`). */
  params: string[];
  /** The instance the API key belongs to (RP endpoints only; undefined elsewhere, so no endpoint can cross instances by accident). */
  instance: InstanceRuntime;
  /** The body as the endpoint's `body` spec validated it; undefined without a body spec, or for an optional body not sent. */
  body: B;
}

export interface ResponseSpec {
  description: string;
  /** Absent for bodiless answers (204). */
  contentType?: 'application/json' | 'application/oauth-authz-req+jwt' | 'text/event-stream';
  schema?: AnySchema;
}

interface BodySpecCommon {
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  /** False when an empty body is allowed (POST …/jwt without wallet parameters). */
  required: boolean;
}

/**
 * Either the schema validates the body at runtime (every issue reported, 400 `request.invalid_body`)
 * and documents it; or, where an operation reads its body with more than the schema (per-instance
 * rules, defaults, its own error details), its reader, built on `schema`, runs instead and the
 * schema documents the wire shape.
 */
export type RequestBodySpec<B = unknown> = BodySpecCommon &
  ({ schema: v.GenericSchema<unknown, B>; parse?: undefined } | { schema: AnySchema; parse(value: unknown, input: EndpointInput<undefined>): B });

/**
 * One HTTP operation: everything routing, the typed methods, the error format and the OpenAPI
 * document need. `path` uses OpenAPI templates (`{authorizationId}`), relative to the mount point.
 */
export interface Endpoint<B = unknown> {
  /** The hosted API's operationId where it names one (wire-api.md section 1). */
  operationId: string;
  /** Stable name for logs and metrics (no ids in it). */
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /**
   * A GET with an effect (the request object's first fetch moves the authorization to pending,
   * emits `authorization.pending` and may use up its single fetch). HEAD is a safe method (RFC 9110
   * section 9.2.1), so routing answers HEAD on such a route with 405 and leaves HEAD out of its
   * Allow list instead of running the GET; on every other GET route HEAD runs the GET and answers
   * without a body. See `http/routes.ts`.
   */
  getHasEffect?: true;
  audience: Audience;
  summary: string;
  description?: string;
  /** An object schema with one member per `{param}` of `path`, in order. */
  pathParams?: AnySchema;
  /** An object schema of the query parameters (all strings). */
  query?: AnySchema;
  /**
   * An object schema of the request headers the operation reads, one member per header as it is
   * named on the wire (`Idempotency-Key`). It declares them in the OpenAPI document; the operation
   * checks a header with the same schema, as its refusal carries its own error code.
   */
  headers?: AnySchema;
  body?: RequestBodySpec<B>;
  /** The success answers. */
  responses: Record<number, ResponseSpec>;
  /**
   * Error statuses particular to the operation. The rest follow from the table (see
   * `responsesOf`): 401 for RP endpoints, 400/413/415 for endpoints with a body, 500 for all; the
   * body of each is the error format of the endpoint's audience.
   */
  errors?: readonly number[];
  /** A more specific description of an error status than the generic one. */
  errorDescriptions?: Readonly<Record<number, string>>;
  /** The operation: its answer, or its refusal thrown as an AuthorizerError (rendered by the request handler). */
  run(input: EndpointInput<B>): Promise<CoreResponse>;
}

/** Identity with a checked shape: the table stays one literal per file. */
export const defineEndpoint = <B = undefined>(endpoint: Endpoint<B>): Endpoint<B> => endpoint;
