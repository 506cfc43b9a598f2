import * as v from 'valibot';

const jsonObject = v.record(v.string(), v.unknown());

/** Every status an authorization can have (design.md section 2). */
export const authorizationStatusSchema = v.picklist(['created', 'pending', 'authorized', 'rejected', 'error', 'expired']);
/** The statuses a finished authorization can have: what dc_api and resolve answer. */
export const terminalStatusSchema = v.picklist(['authorized', 'rejected', 'error', 'expired']);

const problemMembers = {
  type: v.string(),
  title: v.optional(v.string()),
  detail: v.optional(v.string()),
  status: v.optional(v.number()),
  instance: v.optional(v.string()),
  code: v.optional(v.string()),
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

/** RFC 9457-style problem details of a failed policy, with the hosted API's extensions. */
export const policyErrorSchema = v.pipe(
  v.object({
    ...problemMembers,
    external: v.optional(v.record(v.string(), v.object(problemMembers))),
    reason: v.optional(v.picklist(['service.timeout', 'service.unavailable', 'service.bad_response', 'service.client_failed'])),
    attempts: v.optional(v.number()),
  }),
  v.title('PolicyError'),
);

/** Path of a result: `[]` = whole response, `[queryId, index, …]` = one presentation. */
const resultPathSchema = v.array(v.union([v.string(), v.number()]));

/** One policy outcome; exactly one of `data` and `error` is set. */
export const policyResultSchema = v.pipe(
  v.object({
    path: resultPathSchema,
    policy: v.string(),
    service: v.picklist(['authorizer', 'validator', 'verifier', 'resolver', 'library']),
    data: v.optional(jsonObject),
    error: v.optional(policyErrorSchema),
  }),
  v.title('PolicyResult'),
);

/** Claims of one verified presentation. */
export const extractedCredentialSchema = v.pipe(
  v.object({
    path: resultPathSchema,
    format: v.string(),
    credentialType: v.string(),
    claims: jsonObject,
  }),
  v.title('Credential'),
);

/** The `{authorizationId}` path parameter. */
export const AUTHORIZATION_ID = v.object({ authorizationId: v.pipe(v.string(), v.description('The authorizationId returned by createAuthorization.')) });
