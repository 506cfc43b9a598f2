import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { runWalletResponse } from '../authorization/wallet-response-pipeline.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { defineEndpoint } from './endpoint.js';
import { linearCheck } from './linear-check.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID, terminalStatusSchema } from './shared-schemas.js';

const origin = v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.description('The web origin the browser reported (window.location.origin).'));

/** A presentation: a string (JWT, SD-JWT, base64url CBOR) or a JSON object (a Data Integrity VP). */
const isPresentation = (x: unknown): boolean => typeof x === 'string' || (typeof x === 'object' && x !== null && !Array.isArray(x));
const isPresentations = (x: unknown): boolean => isPresentation(x) || (Array.isArray(x) && x.length > 0 && x.every(isPresentation));
const PRESENTATION_JSON_SCHEMA: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'object' }] };
/** vp_token: credential query id → a presentation or a non-empty array of them; one pass, one issue at most. */
const vpToken = linearCheck<Record<string, unknown>>(
  (x) => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every(isPresentations),
  'vp_token must map each credential query id to a presentation (a string or an object) or a non-empty array of them',
  {
    type: 'object',
    additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'array', items: PRESENTATION_JSON_SCHEMA, minItems: 1 }] },
  },
);
/** org-iso-mdoc (ISO/IEC 18013-7 Annex C): the `data` the browser returns. */
const annexCData = v.object({ response: v.pipe(v.string(), v.description('base64url CBOR ["dcapi", {enc, cipherText}]: the HPKE-encrypted DeviceResponse.')) });
/** The DigitalCredential as `navigator.credentials.get` returned it: required when several protocols were offered. */
const namedResponse = (openId4VpData: v.GenericSchema) =>
  v.pipe(
    v.object({
      protocol: v.picklist(['openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned', 'org-iso-mdoc']),
      data: v.union([openId4VpData, annexCData]),
    }),
    v.description('The DigitalCredential {protocol, data}; the protocol must be one the authorization offered.'),
  );
const plainData = v.objectWithRest({ vp_token: vpToken }, v.unknown());
const jwtData = v.objectWithRest({ response: v.pipe(v.string(), v.description('The authorization response as a JWE.')) }, v.unknown());
/** dc_api: the `data` of the DigitalCredential (an unencrypted vp_token, or an org-iso-mdoc response), or the whole DigitalCredential (documentation of the wire shape). */
export const dcApiPlainBodySchema = v.object({ origin, digitalCredentialGetResponse: v.union([plainData, annexCData, namedResponse(plainData)]) });
/** dc_api.jwt: the `data` of the DigitalCredential, an encrypted response, or the whole DigitalCredential. */
export const dcApiJwtBodySchema = v.object({ origin, digitalCredentialGetResponse: v.union([jwtData, namedResponse(jwtData)]) });

/** Either mode's body, as its schema validated it. */
export type DcApiBody = v.InferOutput<typeof dcApiPlainBodySchema> | v.InferOutput<typeof dcApiJwtBodySchema>;

export const dcApiAnswerSchema = v.pipe(v.object({ status: terminalStatusSchema }), v.title('DcApiResult'));
export type DcApiAnswer = v.InferOutput<typeof dcApiAnswerSchema>;

export const dcApiResponses = {
  200: { description: 'The response was evaluated; the terminal status.', contentType: 'application/json', schema: dcApiAnswerSchema },
} as const;
export const dcApiErrors = [404, 503] as const;

/**
 * The RP forwards what `navigator.credentials.get` returned. The answer is the terminal status,
 * synchronously; the audience for holder binding is `origin:<origin>`. The pipeline
 * (wallet-response-pipeline.ts) decides; this parses the body and renders.
 */
export async function receiveDcApiResponse(
  ctx: AuthorizerContext,
  instanceId: string,
  id: string,
  endpoint: 'dc_api' | 'dc_api.jwt',
  body: DcApiBody,
): Promise<DcApiAnswer> {
  const { origin, digitalCredentialGetResponse } = body;
  const { record: done } = await runWalletResponse(ctx, { endpoint, instanceId, id, fields: digitalCredentialGetResponse, origin });
  // The pipeline ends in a terminal status or throws; anything else is a bug, not an answer.
  if (!v.is(terminalStatusSchema, done.status)) throw new AuthorizerError('server.internal_error');
  return { status: done.status };
}

export const dcApiEndpoint = defineEndpoint({
  operationId: 'dcApi',
  name: 'dc_api',
  method: 'POST',
  path: '/openid4/vp/v1_0/{authorizationId}/dc_api',
  audience: 'rp',
  summary: 'Submit what navigator.credentials.get returned (response_mode dc_api)',
  description: 'The RP forwards the DigitalCredential data; the answer is the terminal status, synchronously.',
  pathParams: AUTHORIZATION_ID,
  body: { contentType: 'application/json', schema: dcApiPlainBodySchema, required: true },
  responses: dcApiResponses,
  errors: dcApiErrors,
  run: ({ ctx, params, instance, body }) => json(200, receiveDcApiResponse(ctx, instance.id, params[0]!, 'dc_api', body)),
});
