import * as v from 'valibot';
import type { Code } from '../errors/error-codes.js';

const problemMembers = {
  type: v.string(),
  title: v.optional(v.string()),
  detail: v.optional(v.string()),
  status: v.optional(v.number()),
  instance: v.optional(v.string()),
  /**
   * Stable machine-readable code, for example `proof.signature_invalid`: one of CODES for results
   * made by vp-authorizer; whatever a remote service sent for its own results.
   */
  code: v.optional(v.string()),
  /** The hosted authorizer API's name for the error, where it has one (for clients written against that API). */
  vidosType: v.optional(v.string()),
  errors: v.optional(
    v.array(
      v.object({
        detail: v.string(),
        pointer: v.optional(v.string()),
        parameter: v.optional(v.string()),
        header: v.optional(v.string()),
        code: v.optional(v.string()),
      }),
    ),
  ),
};

export const SERVICE_FAILURE_REASONS = ['service.timeout', 'service.unavailable', 'service.bad_response', 'service.client_failed'] as const satisfies readonly Code[];
export type ServiceFailureReason = (typeof SERVICE_FAILURE_REASONS)[number];

/** RFC 9457-style problem details of a failed policy, with the hosted API's extensions. */
export const policyErrorSchema = v.pipe(
  v.object({
    ...problemMembers,
    /** Problem details passed through from a delegated service. */
    external: v.optional(v.record(v.string(), v.object(problemMembers))),
    /**
     * Why a validate / verify call could not be carried out (`validate.unexpected_error`,
     * `verify.unexpected_error`); `service.client_failed` = an in-process client threw.
     */
    reason: v.optional(v.picklist(SERVICE_FAILURE_REASONS)),
    /** Requests sent to a remote service, retries included (with `reason`, when known). */
    attempts: v.optional(v.number()),
  }),
  v.title('PolicyError'),
);
export type PolicyError = v.InferOutput<typeof policyErrorSchema>;

export const SERVICE_NAMES = ['authorizer', 'validator', 'verifier', 'resolver', 'library'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Path of a result: `[]` = whole response, `[queryId, index]` = one presentation (deeper for mdoc: `[queryId, index, docIndex, namespace]`). */
export const resultPathSchema = v.array(v.union([v.string(), v.number()]));

/** One policy outcome; exactly one of `data` and `error` is set. */
export const policyResultSchema = v.pipe(
  v.object({
    path: resultPathSchema,
    policy: v.string(),
    service: v.picklist(SERVICE_NAMES),
    data: v.optional(v.record(v.string(), v.unknown())),
    error: v.optional(policyErrorSchema),
  }),
  v.title('PolicyResult'),
);
export type PolicyResult = v.InferOutput<typeof policyResultSchema>;

export const isFailedResult = (result: PolicyResult): boolean => result.error !== undefined;
