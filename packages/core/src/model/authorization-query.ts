import * as v from 'valibot';
import { plainObject } from './plain-object.js';
import { DCQL_ID_PATTERN } from './dcql-id-pattern.js';

// What a relying party may ask for. The structure lives here; cross-references between members
// and format rules are checked in request/ (dcqlQueryIssues, presentationDefinitionIssues).

const idSchema = v.pipe(v.string(), v.regex(DCQL_ID_PATTERN, 'must match ^[A-Za-z0-9_-]+$'));

const claimSchema = v.looseObject({
  id: v.optional(idSchema),
  path: v.pipe(
    v.array(v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0)), v.null()], 'path elements must be strings, non-negative integers or null')),
    v.minLength(1, 'path must not be empty'),
  ),
  values: v.optional(v.pipe(v.array(v.union([v.string(), v.number(), v.boolean()], 'values must be strings, numbers or booleans')), v.minLength(1, 'values must not be empty'))),
  intent_to_retain: v.optional(v.boolean()),
});

const credentialSchema = v.looseObject({
  id: idSchema,
  format: v.pipe(v.string('format is required'), v.minLength(1, 'format must not be empty')),
  multiple: v.optional(v.boolean()),
  meta: v.optional(plainObject('meta must be an object')),
  trusted_authorities: v.optional(
    v.pipe(
      v.array(v.looseObject({ type: v.pipe(v.string(), v.minLength(1)), values: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1, 'values must not be empty')) })),
      v.minLength(1, 'trusted_authorities must not be empty'),
    ),
  ),
  require_cryptographic_holder_binding: v.optional(v.boolean()),
  claims: v.optional(v.pipe(v.array(claimSchema), v.minLength(1, 'claims must not be empty'))),
  claim_sets: v.optional(v.pipe(v.array(v.pipe(v.array(v.string()), v.minLength(1, 'a claim set must not be empty'))), v.minLength(1, 'claim_sets must not be empty'))),
});

/** DCQL query structure (OpenID4VP 1.0 section 6). Unknown members are kept. Cross-references: `dcqlQueryIssues`. */
export const dcqlQuerySchema = v.looseObject({
  credentials: v.pipe(v.array(credentialSchema, 'credentials must be an array'), v.minLength(1, 'credentials must list at least one credential query')),
  credential_sets: v.optional(
    v.pipe(
      v.array(
        v.looseObject({
          options: v.pipe(v.array(v.pipe(v.array(v.string()), v.minLength(1, 'an option must not be empty'))), v.minLength(1, 'options must not be empty')),
          required: v.optional(v.boolean()),
        }),
      ),
      v.minLength(1, 'credential_sets must not be empty'),
    ),
  ),
});

/** DCQL query as sent to the wallet (OpenID4VP 1.0 section 6). Unknown members are kept. */
export type DcqlQuery = v.InferOutput<typeof dcqlQuerySchema>;
export type DcqlCredentialQuery = DcqlQuery['credentials'][number];

/** DIF Presentation Exchange v2 definition, checked only as far as the authorizer relies on it. */
export const presentationDefinitionSchema = v.looseObject({
  id: v.pipe(v.string('id is required'), v.minLength(1, 'id must not be empty')),
  input_descriptors: v.pipe(
    v.array(
      v.looseObject({
        id: v.pipe(v.string('input descriptor id is required'), v.minLength(1, 'input descriptor id must not be empty')),
        format: v.optional(plainObject('format must be an object')),
        constraints: v.optional(plainObject('constraints must be an object')),
        group: v.optional(v.array(v.string())),
      }),
    ),
    v.minLength(1, 'input_descriptors must list at least one descriptor'),
  ),
  submission_requirements: v.optional(v.array(plainObject('each submission requirement must be an object'))),
  format: v.optional(plainObject('format must be an object')),
  name: v.optional(v.string()),
  purpose: v.optional(v.string()),
});

/** DIF Presentation Exchange v2 definition (legacy flows). */
export type PresentationDefinition = v.InferOutput<typeof presentationDefinitionSchema>;

export const authorizationQuerySchema = v.variant('type', [
  v.object({ type: v.literal('DCQL'), dcql: dcqlQuerySchema }),
  v.object({ type: v.literal('DIF.PresentationExchange'), presentationDefinition: presentationDefinitionSchema }),
]);
export type AuthorizationQuery = v.InferOutput<typeof authorizationQuerySchema>;
