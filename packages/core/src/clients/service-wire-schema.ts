import * as v from 'valibot';
import type { PolicyError, PolicyResult } from '../model/policy-result.js';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

const problemFields = {
  type: text(2048),
  title: v.optional(text(1024)),
  detail: v.optional(text(4096)),
  status: v.optional(v.pipe(v.number(), v.integer())),
  instance: v.optional(text(2048)),
  vidosType: v.optional(text(256)),
  code: v.optional(text(256)),
  errors: v.optional(
    v.pipe(
      v.array(v.object({ detail: text(4096), pointer: v.optional(text(1024)), parameter: v.optional(text(256)), header: v.optional(text(256)), code: v.optional(text(256)) })),
      v.maxLength(256),
    ),
  ),
};

/** Problem details as services send them (RFC 9457 style); unknown members are dropped. */
export const problemDetailsSchema = v.object(problemFields);

const policyErrorSchema = v.object({ ...problemFields, external: v.optional(v.record(text(256), problemDetailsSchema)) });

export const policyResultSchema = v.pipe(
  v.object({
    path: v.pipe(v.array(v.union([v.string(), v.pipe(v.number(), v.integer())])), v.maxLength(32)),
    policy: text(256),
    service: v.picklist(['authorizer', 'validator', 'verifier', 'resolver', 'library']),
    data: v.optional(v.record(v.string(), v.unknown())),
    error: v.optional(policyErrorSchema),
  }),
  v.check((r) => (r.data === undefined) !== (r.error === undefined), 'exactly one of data and error must be set'),
);

/** 200: `{ results: PolicyResult[] }`. */
export const okResponseSchema = v.object({ results: v.pipe(v.array(policyResultSchema), v.maxLength(10_000)) });

/** 422 (the presentation is invalid): `{ results?: PolicyResult[], error?: ProblemDetails }`. */
export const invalidResponseSchema = v.object({ results: v.optional(v.pipe(v.array(policyResultSchema), v.maxLength(10_000))), error: v.optional(problemDetailsSchema) });

// The schemas' outputs are assignable to the public types; a drift breaks the build here.
type Assert<T extends true> = T;
type _ResultsMatch = Assert<v.InferOutput<typeof policyResultSchema> extends PolicyResult ? true : false>;
type _ProblemMatches = Assert<v.InferOutput<typeof problemDetailsSchema> extends Omit<PolicyError, 'external'> ? true : false>;
