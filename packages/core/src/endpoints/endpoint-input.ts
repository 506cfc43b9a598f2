import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { issueDetail, issuePointer } from '../request/json-pointer.js';
import { expectObject, parseBody } from '../wire/parse-body.js';
import type { Endpoint, EndpointInput, RequestBodySpec } from './endpoint.js';

/**
 * The input of an endpoint's operation, validated by the endpoint's own schemas — the ones the
 * OpenAPI document is built from: path parameters, query parameters and the body (415 for another
 * content type, 400 `request.invalid_body` naming every problem). The operation receives the body
 * as validated, typed by its schema.
 */
export function endpointInput(endpoint: Endpoint, input: EndpointInput<undefined>): EndpointInput {
  if (endpoint.pathParams) check(endpoint.pathParams, pathObject(endpoint.path, input.params), '/path');
  if (endpoint.query) check(endpoint.query, queryObject(input.request.query), '/query');
  if (!endpoint.body) return input;
  return { ...input, body: readEndpointBody(endpoint.body, input) };
}

/** The body of a request as `spec` validates it (an optional body not sent reads as undefined). */
export function readEndpointBody<B>(spec: RequestBodySpec<B>, input: EndpointInput<undefined>): B | undefined {
  if (!spec.required && !input.request.body) return undefined;
  // A JSON body is an object on every endpoint: that refusal first, in one wording for all.
  const value = spec.contentType === 'application/json' ? expectObject(parseBody(input.request, ['json']).value) : parseBody(input.request, ['form']).value;
  return validateBody(spec, value, input);
}

/** A body value (from HTTP, or given to a typed method) as `spec` validates it. */
export function validateBody<B>(spec: RequestBodySpec<B>, value: unknown, input: EndpointInput<undefined>): B {
  return spec.parse ? spec.parse(value, input) : schemaOutput(spec.schema, value);
}

/** `value` as `schema` outputs it, or 400 `request.invalid_body` naming every issue. */
export function schemaOutput<T>(schema: v.GenericSchema<unknown, T>, value: unknown): T {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return parsed.output;
  throw invalidBody(parsed.issues);
}

/** 400 `request.invalid_body` naming every issue of a schema by its JSON pointer. */
export function invalidBody(issues: readonly v.BaseIssue<unknown>[], base: readonly (string | number)[] = []): AuthorizerError {
  const errors = issues.map((issue) => ({ pointer: issuePointer(issue, base), detail: issueDetail(issue) }));
  return new AuthorizerError('request.invalid_body', { errors, message: `The request is invalid: ${errors[0]!.detail}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.` });
}

function check(schema: v.GenericSchema, value: unknown, base: string): void {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw invalidBody(parsed.issues, [base.slice(1)]);
}

const TEMPLATE = /\{([^}]+)\}/g;
const namesByPath = new Map<string, string[]>();
/** `{authorizationId: …}` from the template's names and the matched segments, in order. */
function pathObject(path: string, params: readonly string[]): Record<string, string> {
  let names = namesByPath.get(path);
  if (!names) namesByPath.set(path, (names = [...path.matchAll(TEMPLATE)].map((m) => m[1]!)));
  const object: Record<string, string> = {};
  names.forEach((name, i) => (object[name] = params[i] ?? ''));
  return object;
}

/** The query as an object: the first value of each name, as `URLSearchParams.get` reads it. */
function queryObject(query: URLSearchParams): Record<string, string> {
  const object: Record<string, string> = {};
  for (const [name, value] of query) if (!Object.hasOwn(object, name)) object[name] = value;
  return object;
}
