/**
 * The one table of stable error codes. RP-facing endpoints answer
 * `{type: <code>, message, action?, status, errors?}`; wallet-facing endpoints map the code
 * to an OAuth `error` value. Codes never change meaning once published.
 */
export const ERROR_CODES = {
  // request shape
  'request.invalid_body': { status: 400, oauth: 'invalid_request', message: 'The request body is invalid.' },
  'request.invalid_json': { status: 400, oauth: 'invalid_request', message: 'The request body is not valid JSON.' },
  'request.unsupported_media_type': { status: 415, oauth: 'invalid_request', message: 'The content type is not supported by this endpoint.' },
  'request.body_too_large': { status: 413, oauth: 'invalid_request', message: 'The request body is larger than the configured limit.' },
  'request.route_not_found': { status: 404, oauth: 'invalid_request', message: 'No such endpoint.' },
  'request.method_not_allowed': { status: 405, oauth: 'invalid_request', message: 'The method is not allowed on this endpoint.' },
  // authentication / scoping
  'auth.unauthorized': { status: 401, oauth: 'invalid_client', message: 'A valid API key is required (Authorization: Bearer followed by the key).' },
  'authorization.not_found': { status: 404, oauth: 'invalid_request', message: 'The authorization does not exist.' },
  'authorization.expired': { status: 400, oauth: 'invalid_request', message: 'The authorization has expired.' },
  'authorization.already_answered': { status: 400, oauth: 'invalid_request', message: 'A response for this authorization was already received.' },
  'authorization.not_awaiting_response': { status: 400, oauth: 'invalid_request', message: 'The request object of this authorization was never fetched; no response is expected yet.' },
  'trust_anchor.not_configured': { status: 404, oauth: 'invalid_request', message: 'No trust anchor is configured for this instance (signing.trustAnchor).' },
  'authorization.wrong_response_mode': { status: 400, oauth: 'invalid_request', message: 'The response was sent to an endpoint that does not match the requested response mode.' },
  'authorization.state_mismatch': { status: 400, oauth: 'invalid_request', message: 'The state does not match the authorization.' },
  'authorization.origin_mismatch': { status: 400, oauth: 'invalid_request', message: 'The origin is not one of the expected origins.' },
  'request.expected_origins_required': {
    status: 400,
    oauth: 'invalid_request',
    message: 'An unsigned DC API request needs expectedOrigins, or openId4vp.dcApi.allowedOrigins in the instance configuration, so that the response origin can be checked.',
  },
  'authorization.invalid_response': { status: 400, oauth: 'invalid_request', message: 'The wallet response is malformed.' },
  'authorization.invalid_jwe': { status: 400, oauth: 'invalid_request', message: 'The encrypted response could not be decrypted or is not acceptable.' },
  'authorization.invalid_wallet_metadata': { status: 400, oauth: 'invalid_request', message: 'The wallet metadata is malformed.' },
  'authorization.presentation_rejected': { status: 400, oauth: 'invalid_request', message: 'The presentation was not accepted.' },
  'authorization.processing_failed': { status: 500, oauth: 'server_error', message: 'The response could not be processed and cannot be submitted again; start a new presentation at the verifier.' },
  'response_code.not_found': { status: 404, oauth: 'invalid_request', message: 'Response code not found, already used, or expired.' },
  'response_code.authorization_mismatch': { status: 400, oauth: 'invalid_request', message: 'The response code was not issued for the expected authorization; it has been invalidated.' },
  // HAIP profile rules (one code per rule)
  'haip.response_type': { status: 400, oauth: 'invalid_request', message: 'HAIP allows only response type vp_token.' },
  'haip.response_mode': { status: 400, oauth: 'invalid_request', message: 'HAIP allows only the response modes direct_post.jwt and dc_api.jwt.' },
  'haip.query_type': { status: 400, oauth: 'invalid_request', message: 'HAIP allows only DCQL queries.' },
  'haip.client_id_prefix': { status: 400, oauth: 'invalid_request', message: 'HAIP requires the x509_hash client identifier prefix.' },
  'haip.certificate_chain': { status: 400, oauth: 'invalid_request', message: 'HAIP requires a signing certificate that is not self-signed and a chain without the trust anchor.' },
  'haip.credential_format': { status: 400, oauth: 'invalid_request', message: 'HAIP allows only the dc+sd-jwt and mso_mdoc credential formats.' },
  'haip.holder_binding': { status: 400, oauth: 'invalid_request', message: 'HAIP requires cryptographic holder binding for every credential.' },
  'haip.wallet_metadata': { status: 400, oauth: 'invalid_request', message: 'The wallet metadata does not meet the HAIP requirements.' },
  // configuration
  'config.invalid': { status: 500, oauth: 'server_error', message: 'The authorizer configuration is invalid.' },
  // infrastructure
  'store.unavailable': { status: 503, oauth: 'temporarily_unavailable', message: 'The state store is unavailable; try again shortly.' },
  'service.unavailable': { status: 503, oauth: 'temporarily_unavailable', message: 'A delegated validator or verifier service is unavailable.' },
  'service.bad_response': { status: 502, oauth: 'server_error', message: 'A delegated validator or verifier service gave an unexpected answer.' },
  'service.timeout': { status: 504, oauth: 'temporarily_unavailable', message: 'A delegated validator or verifier service did not answer in time.' },
  'internal': { status: 500, oauth: 'server_error', message: 'An internal error occurred.' },
} as const satisfies Record<string, { status: number; oauth: string; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
