import * as v from 'valibot';

// The 201 body of a created authorization (hosted API: createAuthorization), as the endpoint
// declares it and request/ builds it.

const common = {
  authorizationId: v.string(),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
  nonce: v.string(),
};

const directPostCreatedSchema = v.pipe(
  v.object({
    ...common,
    /** `<authorizationEndpoint>?client_id=…&request_uri=…&request_uri_method=post`: the QR code or deep link. */
    authorizeUrl: v.string(),
    authorizationEndpoint: v.string(),
  }),
  v.title('DirectPostAuthorizationCreated'),
);

export const unsignedDcApiRequestSchema = v.object({
  protocol: v.literal('openid4vp-v1-unsigned'),
  data: v.object({
    response_type: v.literal('vp_token'),
    response_mode: v.picklist(['dc_api', 'dc_api.jwt']),
    nonce: v.string(),
    client_metadata: v.record(v.string(), v.unknown()),
    dcql_query: v.record(v.string(), v.unknown()),
    transaction_data: v.optional(v.array(v.string())),
    verifier_info: v.optional(v.array(v.unknown())),
  }),
});
const signedRequestSchema = v.object({ protocol: v.literal('openid4vp-v1-signed'), data: v.object({ request: v.string() }) });
const multiSignedRequestSchema = v.object({
  protocol: v.literal('openid4vp-v1-multisigned'),
  data: v.object({ payload: v.string(), signatures: v.array(v.object({ protected: v.string(), signature: v.string() })) }),
});

const annexCRequestSchema = v.object({
  protocol: v.literal('org-iso-mdoc'),
  data: v.object({
    /** base64url CBOR DeviceRequest (ISO/IEC 18013-5), one DocRequest per credential query. */
    deviceRequest: v.string(),
    /** base64url CBOR `["dcapi", {nonce, recipientPublicKey}]` (ISO/IEC 18013-7 Annex C). */
    encryptionInfo: v.string(),
  }),
});

/** What the browser passes to `navigator.credentials.get({digital: {requests: [...]}})`. */
export const digitalCredentialGetRequestSchema = v.variant('protocol', [unsignedDcApiRequestSchema, signedRequestSchema, multiSignedRequestSchema, annexCRequestSchema]);

const dcApiCreatedSchema = v.pipe(
  v.object({
    ...common,
    /** The request of the (first) protocol. */
    digitalCredentialGetRequest: digitalCredentialGetRequestSchema,
    /** When the body listed `protocols`: one request per protocol, in that order, for `navigator.credentials.get({digital: {requests}})`. */
    digitalCredentialGetRequests: v.optional(v.array(digitalCredentialGetRequestSchema)),
    /** Where the RP posts what the browser returned (`…/dc_api` or `…/dc_api.jwt`). */
    responseUrl: v.string(),
  }),
  v.title('DcApiAuthorizationCreated'),
);

export const createAuthorizationResponseSchema = v.union([directPostCreatedSchema, dcApiCreatedSchema]);
export type CreateAuthorizationResponse = v.InferOutput<typeof createAuthorizationResponseSchema>;
export type DirectPostAuthorizationResponse = v.InferOutput<typeof directPostCreatedSchema>;
export type DcApiAuthorizationResponse = v.InferOutput<typeof dcApiCreatedSchema>;
/** The object the browser passes to `navigator.credentials.get({digital: {requests: [...]}})`. */
export type DigitalCredentialGetRequest = v.InferOutput<typeof digitalCredentialGetRequestSchema>;
export type UnsignedDcApiRequestData = v.InferOutput<typeof unsignedDcApiRequestSchema>['data'];
