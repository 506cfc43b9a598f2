/**
 * The one table of every code a user of vp-authorizer can see. It sits at the bottom of the
 * import graph (no imports) so that every folder of core and every package can type its codes
 * against it: a code that is not here fails typecheck.
 *
 * Three kinds:
 * - `http`: an `AuthorizerError` answered over HTTP. Relying-party routes answer
 *   `{type: <code>, message, action?, status, errors?}`; wallet routes answer
 *   `{error: <oauth>, error_description}`.
 * - `policy`: the `code` of a PolicyResult error (`GET …/policy-response`), with
 *   `type = ERROR_TYPE_BASE + code`. `by` names who produces it.
 * - `error`: the `code` of an error class thrown to the host program (never answered as such).
 *
 * One naming style: `area.snake_case`. Codes never change meaning once published.
 */

/** The base of every problem `type` URL; the code follows it. Declared once, here. */
export const ERROR_TYPE_BASE = 'https://vp-authorizer.dev/errors/';

/**
 * The hosted API's error names: the slugs of its error pages (`vidosType`) and the names of its
 * authorizer policy errors, as its API reference lists them.
 */
export type HostedErrorName =
  | 'credential-query-evaluation'
  | 'credential-query-format'
  | 'credential-query-unsupported'
  | 'invalid-format'
  | 'not-allowed-by-configuration'
  | 'proof-cryptographic-error'
  | 'proof-resolve-issuer'
  | 'proof-unsupported-feature'
  | 'proof-verification-failed'
  | 'trusted-issuer-configuration-invalid'
  | 'trusted-issuer-unsupported'
  | 'trusted-issuer-untrusted'
  | 'trusted-issuer-validation-error'
  | 'unexpected-error'
  | 'unsupported-format'
  | 'validate-failed'
  | 'unexpected-validate-error'
  | 'verify-failed'
  | 'unexpected-verify-error';

export type OAuthErrorValue = 'invalid_request' | 'invalid_client' | 'server_error' | 'temporarily_unavailable';
/** Who puts a policy code into a PolicyResult. */
export type PolicyProducer = 'authorizer' | 'format' | 'localValidator' | 'localVerifier';
/** Which package throws an error-class code. */
export type ThrowingPackage = '@vp-authorizer/core' | '@vp-authorizer/local' | '@vp-authorizer/redis' | '@vp-authorizer/trust-lists';

export interface HttpCodeEntry {
  readonly kind: 'http';
  readonly status: number;
  /** OAuth `error` value used by wallet-facing endpoints. */
  readonly oauth: OAuthErrorValue;
  /** Default message; also the one-line description. */
  readonly message: string;
}
export interface PolicyCodeEntry<B extends readonly PolicyProducer[] = readonly PolicyProducer[]> {
  readonly kind: 'policy';
  readonly by: B;
  /** The PolicyError `title`; also the one-line description. */
  readonly title: string;
  /** What the code implies for the authorization, when the title does not say it (documentation only). */
  readonly note?: string;
  /** The hosted authorizer API's name for the same error, sent as `vidosType` for clients written against it. */
  readonly hostedName?: HostedErrorName;
  /**
   * Reported as a consequence of other failures of the same response (an untrusted issuer makes
   * the credential query unsatisfied). Such results come after their root causes in
   * `policy-response` and never become the authorization's summary error while a root cause exists.
   */
  readonly derived?: true;
}
export interface ErrorClassCodeEntry {
  readonly kind: 'error';
  readonly by: ThrowingPackage;
  readonly title: string;
}
export type CodeEntry = HttpCodeEntry | PolicyCodeEntry | ErrorClassCodeEntry;

const http = (status: number, oauth: OAuthErrorValue, message: string): HttpCodeEntry => ({ kind: 'http', status, oauth, message });
const policy = <const B extends readonly PolicyProducer[]>(by: B, title: string, extra: { note?: string; hostedName?: HostedErrorName; derived?: true } = {}): PolicyCodeEntry<B> => ({
  kind: 'policy',
  by,
  title,
  ...extra,
});
const thrown = (by: ThrowingPackage, title: string): ErrorClassCodeEntry => ({ kind: 'error', by, title });

const AUTHORIZER = ['authorizer'] as const;
const FORMAT = ['format'] as const;
const VALIDATOR = ['localValidator'] as const;
const VERIFIER = ['localVerifier'] as const;

export const CODES = {
  // ── HTTP: request shape
  'request.invalid_body': http(400, 'invalid_request', 'The request body is invalid.'),
  'request.unsupported_pattern': http(
    400,
    'invalid_request',
    'A JSON Schema pattern in the presentation definition cannot be run in linear time: ECMA-262 syntax without backreferences or lookaround, within the size limits.',
  ),
  'request.invalid_json': http(400, 'invalid_request', 'The request body is not valid JSON.'),
  'request.invalid_idempotency_key': http(400, 'invalid_request', 'The Idempotency-Key header must be 16 to 255 printable ASCII characters (a random key, such as a UUID).'),
  'request.member_too_large': http(400, 'invalid_request', 'A member of the request body is larger than its cap (the field error names it and the cap); the authorizer stores it for the whole retention.'),
  'request.unsupported_media_type': http(415, 'invalid_request', 'The content type is not supported by this endpoint.'),
  'request.body_too_large': http(413, 'invalid_request', 'The request body is larger than the configured limit.'),
  'request.route_not_found': http(404, 'invalid_request', 'No such endpoint.'),
  'request.method_not_allowed': http(405, 'invalid_request', 'The method is not allowed on this endpoint.'),
  // ── HTTP: authentication, scoping, authorization lifecycle
  'auth.unauthorized': http(401, 'invalid_client', 'A valid API key is required (Authorization: Bearer followed by the key).'),
  'authorization.not_found': http(404, 'invalid_request', 'The authorization does not exist.'),
  'authorization.expired': http(400, 'invalid_request', 'The authorization has expired.'),
  'authorization.already_answered': http(400, 'invalid_request', 'A response for this authorization was already received.'),
  'authorization.not_awaiting_response': http(400, 'invalid_request', 'The request object of this authorization was never fetched; no response is expected yet.'),
  'authorization.request_object_already_fetched': http(
    400,
    'invalid_request',
    'The request object of this authorization was already fetched, and this verifier serves it only once; start a new presentation at the verifier.',
  ),
  'authorization.request_object_fetch_limit': http(
    400,
    'invalid_request',
    'The request object of this authorization was fetched more often than a wallet needs (16 times); start a new presentation at the verifier.',
  ),
  'trust_anchor.not_configured': http(404, 'invalid_request', 'No trust anchor is configured for this instance (signing.trustAnchor).'),
  'authorization.wrong_response_mode': http(400, 'invalid_request', 'The response was sent to an endpoint that does not match the requested response mode.'),
  'authorization.state_mismatch': http(400, 'invalid_request', 'The state does not match the authorization.'),
  'authorization.origin_mismatch': http(400, 'invalid_request', 'The origin is not one of the expected origins.'),
  'request.expected_origins_required': http(
    400,
    'invalid_request',
    'An unsigned DC API request needs expectedOrigins when the instance allows no origin by default (openId4vp.dcApi.allowedOrigins: []), so that the response origin can be checked.',
  ),
  'authorization.invalid_response': http(400, 'invalid_request', 'The wallet response is malformed.'),
  'authorization.invalid_jwe': http(400, 'invalid_request', 'The encrypted response could not be decrypted or is not acceptable.'),
  'authorization.invalid_wallet_metadata': http(400, 'invalid_request', 'The wallet metadata is malformed.'),
  'request.reader_auth_needs_one_origin': http(
    400,
    'invalid_request',
    'An org-iso-mdoc request with readerAuth is signed for one origin (the ReaderAuthentication holds the SessionTranscript, which names it): give exactly one expectedOrigins.',
  ),
  'authorization.protocol_not_offered': http(400, 'invalid_request', 'The DC API response names a protocol this authorization did not offer.'),
  'authorization.annex_c_malformed': http(400, 'invalid_request', 'The org-iso-mdoc response is not base64url CBOR ["dcapi", {enc, cipherText}] with a P-256 enc.'),
  'authorization.annex_c_decryption_failed': http(
    400,
    'invalid_request',
    'The org-iso-mdoc response could not be decrypted with this authorization\'s recipient key and the SessionTranscript of the reported origin (another origin, another recipient key, or altered bytes).',
  ),
  'authorization.presentation_rejected': http(400, 'invalid_request', 'The presentation was not accepted.'),
  'authorization.not_finished': http(409, 'invalid_request', 'The authorization has no outcome yet, and nothing a wallet disclosed is stored before it: erase its data once its status is terminal (it expires at expiresAt at the latest).'),
  'authorization.data_erased': http(410, 'invalid_request', "The data the wallet disclosed for this authorization was erased (its retention window ended, or the relying party erased it); its status remains readable."),
  'authorization.processing_failed': http(500, 'server_error', 'The response could not be processed and cannot be submitted again; start a new presentation at the verifier.'),
  'response_code.not_found': http(404, 'invalid_request', 'Response code not found, already used, or expired.'),
  'response_code.authorization_mismatch': http(400, 'invalid_request', 'The response code was not issued for the expected authorization; it has been invalidated.'),
  'request.redirect_uri_not_allowed': http(400, 'invalid_request', "redirectUri is not one this instance redirects to: neither listed in its openId4vp.allowedRedirectUris nor on an origin listed there."),
  'webhook.not_configured': http(400, 'invalid_request', 'webhookUrl needs webhooks configured for this instance (webhooks.secret); nothing would sign the deliveries.'),
  'webhook.url_refused': http(
    400,
    'invalid_request',
    'webhookUrl is outside the outbound-fetch policy: an https URL on the default port to a public DNS name, without credentials.',
  ),
  // ── HTTP: HAIP profile rules (one code per rule)
  'haip.response_type': http(400, 'invalid_request', 'HAIP allows only response type vp_token.'),
  'haip.response_mode': http(400, 'invalid_request', 'HAIP allows only the response modes direct_post.jwt and dc_api.jwt.'),
  'haip.query_type': http(400, 'invalid_request', 'HAIP allows only DCQL queries.'),
  'haip.client_id_prefix': http(400, 'invalid_request', 'HAIP requires the x509_hash client identifier prefix.'),
  'haip.certificate_chain': http(400, 'invalid_request', 'HAIP requires an end-entity signing certificate that is not self-signed, and a chain without the trust anchor.'),
  'haip.credential_format': http(400, 'invalid_request', 'HAIP allows only the dc+sd-jwt and mso_mdoc credential formats.'),
  'haip.holder_binding': http(400, 'invalid_request', 'HAIP requires cryptographic holder binding for every credential.'),
  'haip.wallet_metadata': http(400, 'invalid_request', 'The wallet metadata does not meet the HAIP requirements.'),
  // ── HTTP: configuration and infrastructure (also the codes of ConfigError, StoreUnavailableError, StoreQuotaExceededError, ServiceCallError)
  'config.invalid': http(500, 'server_error', 'The authorizer configuration is invalid.'),
  'store.unavailable': http(503, 'temporarily_unavailable', 'The state store is unavailable; try again shortly.'),
  'readiness.not_ready': http(503, 'temporarily_unavailable', 'A configured readiness check (for example trusted lists past their NextUpdate plus grace) is not ready; route traffic away and ask again after Retry-After seconds.'),
  'store.quota_exceeded': http(429, 'temporarily_unavailable', "This instance holds as many authorizations as the store allows it; retry after Retry-After seconds, when its oldest ones have left the store."),
  'service.unavailable': http(503, 'temporarily_unavailable', 'A delegated validator or verifier service is unavailable.'),
  'service.bad_response': http(502, 'server_error', 'A delegated validator or verifier service gave an unexpected answer.'),
  'service.timeout': http(504, 'temporarily_unavailable', 'A delegated validator or verifier service did not answer in time.'),
  'server.internal_error': http(500, 'server_error', 'An internal error occurred.'),
  'events.too_many_streams': http(503, 'temporarily_unavailable', 'This process serves its maximum of open event streams; retry after Retry-After seconds, or poll the status.'),
  'signing.unavailable': http(503, 'temporarily_unavailable', 'The request-signing key (an HSM, a KMS) did not sign in time or failed; nothing was stored or changed, try again shortly.'),
  'signing.identity_removed': http(400, 'invalid_request', 'This authorization was created under a signing identity the instance no longer has (rotated out before it expired); create a new authorization.'),

  // ── Policy: the authorizer's own results
  'validate.unexpected_error': policy(AUTHORIZER, 'The validate policy could not be carried out', {
    note: 'The validator threw, timed out, or answered with malformed or missing results; `reason` says which → status `error`.',
    hostedName: 'unexpected-validate-error',
  }),
  'verify.unexpected_error': policy(AUTHORIZER, 'The verify policy could not be carried out', {
    note: 'The verifier threw, timed out, or answered with malformed or missing results (every presentation needs a result); `reason` says which → status `error`.',
    hostedName: 'unexpected-verify-error',
  }),
  'validate.failed': policy(AUTHORIZER, 'The validator found the presentation invalid.', {
    note: 'A remote validator answered 422; its problem details are kept under `error.external.validator` → `rejected`.',
    hostedName: 'validate-failed',
  }),
  'verify.failed': policy(AUTHORIZER, 'The verifier found the presentation invalid.', {
    note: 'A remote verifier answered 422; its problem details are kept under `error.external.verifier` → `rejected`.',
    hostedName: 'verify-failed',
  }),
  'service.client_failed': policy(AUTHORIZER, 'An in-process validator or verifier client threw.', {
    note: 'Appears as the `reason` of `validate.unexpected_error` / `verify.unexpected_error` (remote failures give `service.timeout`, `service.unavailable` or `service.bad_response` there).',
  }),
  'authorizer.internal_error': policy(AUTHORIZER, 'The response could not be processed', {
    note: 'Processing failed inside the authorizer after the response was claimed → `error`.',
    hostedName: 'unexpected-error',
  }),
  'authorizer.processing_abandoned': policy(AUTHORIZER, 'The wallet response was not processed in time', {
    note: 'A claimed response was never decided (its process died or lost the store) and no response took its lapsed claim over before the authorization expired (nor before the policy timeouts + 15 s after the claim, if later) → `error`.',
    hostedName: 'unexpected-error',
  }),
  'authorizer.rejected': policy(AUTHORIZER, 'A policy rejected the presentation without an error of its own.', { note: 'Only in the error answered to a wallet whose presentation was rejected → `rejected`.' }),
  // The wallet's own OAuth error response: `wallet.<error>`. The values of OpenID4VP 1.0 section 8.5
  // and RFC 6749 are listed; any other well-formed value passes through as `wallet.<value>`.
  'wallet.invalid_request': policy(AUTHORIZER, 'The wallet answered invalid_request.', { note: 'The wallet answered with an OAuth error → `rejected` (the same for every `wallet.*` code).' }),
  'wallet.unauthorized_client': policy(AUTHORIZER, 'The wallet answered unauthorized_client.'),
  'wallet.access_denied': policy(AUTHORIZER, 'The wallet answered access_denied (the user declined, or no matching credential).'),
  'wallet.unsupported_response_type': policy(AUTHORIZER, 'The wallet answered unsupported_response_type.'),
  'wallet.invalid_scope': policy(AUTHORIZER, 'The wallet answered invalid_scope.'),
  'wallet.server_error': policy(AUTHORIZER, 'The wallet answered server_error.'),
  'wallet.temporarily_unavailable': policy(AUTHORIZER, 'The wallet answered temporarily_unavailable.'),
  'wallet.invalid_client': policy(AUTHORIZER, 'The wallet answered invalid_client (it does not accept the client identifier).'),
  'wallet.vp_formats_not_supported': policy(AUTHORIZER, 'The wallet answered vp_formats_not_supported.'),
  'wallet.invalid_request_uri_method': policy(AUTHORIZER, 'The wallet answered invalid_request_uri_method.'),
  'wallet.invalid_transaction_data': policy(AUTHORIZER, 'The wallet answered invalid_transaction_data.'),
  'wallet.wallet_unavailable': policy(AUTHORIZER, 'The wallet answered wallet_unavailable.'),
  'wallet.unknown': policy(AUTHORIZER, 'The wallet answered with an error value that is not a well-formed OAuth error code.'),

  // ── Policy: the format policy (inside the authorizer)
  'format.vp_token_invalid': policy(FORMAT, 'The vp_token is missing or not shaped as the query requires.', { hostedName: 'invalid-format' }),
  'format.unknown_query_id': policy(FORMAT, 'The vp_token has a key that is not a credential query id of this request.', { hostedName: 'invalid-format' }),
  'format.query_not_covered': policy(FORMAT, 'The vp_token does not contain the credentials the query requires.', { hostedName: 'invalid-format' }),
  'format.cardinality': policy(FORMAT, 'A credential query received the wrong number of presentations.', { hostedName: 'invalid-format' }),
  'format.unsupported_format': policy(FORMAT, 'The credential format is not supported.', { hostedName: 'unsupported-format' }),
  'format.sd_jwt_malformed': policy(FORMAT, 'An SD-JWT presentation could not be decoded.', { hostedName: 'invalid-format' }),
  'format.mdoc_malformed': policy(FORMAT, 'An mdoc DeviceResponse could not be decoded.', { hostedName: 'invalid-format' }),
  'format.cbor_budget_exceeded': policy(FORMAT, 'The CBOR in the response needs more decoding work than allowed.', { hostedName: 'invalid-format' }),
  'format.jwt_malformed': policy(FORMAT, 'A JWT presentation or credential could not be decoded.', { hostedName: 'invalid-format' }),
  'format.ldp_malformed': policy(FORMAT, 'A Data Integrity (ldp) presentation is not a JSON object.', { hostedName: 'invalid-format' }),
  'format.submission_invalid': policy(FORMAT, 'The presentation_submission is missing, unexpected or does not match the presentation definition.', { hostedName: 'invalid-format' }),
  'format.id_token_missing': policy(FORMAT, 'The response type requires an id_token and none was sent.', { hostedName: 'invalid-format' }),
  'format.id_token_malformed': policy(FORMAT, 'The id_token is not a decodable JWT.', { hostedName: 'invalid-format' }),
  'format.claim_not_requested': policy(FORMAT, 'A presentation discloses a selectively disclosable claim (an mdoc data element) that no credential query of the request selected (OpenID4VP 1.0 section 6.4).', { hostedName: 'invalid-format' }),
  'format.haip_violation': policy(FORMAT, 'The presentation does not meet the HAIP profile.', { hostedName: 'not-allowed-by-configuration' }),

  // ── Policy: localValidator (@vp-authorizer/local)
  'credential_query.invalid_query': policy(VALIDATOR, 'The credential query of this authorization cannot be evaluated.', { hostedName: 'credential-query-format' }),
  'credential_query.unknown_query': policy(VALIDATOR, 'A presentation answers a credential query that this request does not contain.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.cardinality': policy(VALIDATOR, 'A credential query received more presentations than it allows.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.format_mismatch': policy(VALIDATOR, 'The presentation format does not match the credential query.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.meta_mismatch': policy(VALIDATOR, 'The credential type does not match the credential query meta constraints.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.claims_unsatisfied': policy(VALIDATOR, 'The presentation does not disclose the claims the credential query requires.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.value_mismatch': policy(VALIDATOR, 'A disclosed claim does not have one of the values the credential query allows.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.holder_binding_missing': policy(VALIDATOR, 'The credential query requires cryptographic holder binding and the presentation has no holder proof.', { hostedName: 'credential-query-evaluation' }),
  'credential_query.match_budget_exceeded': policy(VALIDATOR, 'Matching the presentations against the DCQL query needs more work than allowed.', {
    note: 'Values the claims paths select and `values` comparisons, 1,000,000 units per response → `rejected`.',
    hostedName: 'credential-query-evaluation',
  }),
  'credential_query.unsatisfied': policy(VALIDATOR, 'The valid presentations do not satisfy the credential query.', { note: 'Derived: listed after the failures that caused it (policy-response, summary error).', hostedName: 'credential-query-evaluation', derived: true }),
  'trusted_authorities.no_match': policy(VALIDATOR, 'The credential was not issued under any trusted authority the credential query names.', { hostedName: 'credential-query-evaluation' }),
  'trusted_authorities.unsupported': policy(VALIDATOR, 'The credential query names a trusted authority type this validator cannot evaluate.', { hostedName: 'credential-query-unsupported' }),
  'transaction_data.invalid': policy(VALIDATOR, 'A transaction_data entry of this authorization cannot be decoded.'),
  'transaction_data.not_covered': policy(VALIDATOR, 'A transaction_data entry is not covered by any presentation of the credential queries it names.', { note: 'Derived: listed after the failures that caused it (policy-response, summary error).', derived: true }),
  'presentation_exchange.unknown_descriptor': policy(VALIDATOR, 'A presentation answers an input descriptor that the presentation definition does not contain.', { hostedName: 'credential-query-evaluation' }),
  'presentation_exchange.format_mismatch': policy(VALIDATOR, 'The presentation format is not allowed by its input descriptor.', { hostedName: 'credential-query-evaluation' }),
  'presentation_exchange.fields_unsatisfied': policy(VALIDATOR, 'The credential does not meet the input descriptor field constraints.', { hostedName: 'credential-query-evaluation' }),
  'presentation_exchange.unsupported_jsonpath': policy(VALIDATOR, 'The presentation definition uses a JSONPath expression outside the supported safe subset.', { hostedName: 'credential-query-unsupported' }),
  'presentation_exchange.unsupported_filter': policy(VALIDATOR, 'The presentation definition uses a JSON Schema filter keyword this validator does not evaluate.', { hostedName: 'credential-query-unsupported' }),
  'presentation_exchange.unsupported_constraint': policy(VALIDATOR, 'The presentation definition uses a constraint this validator does not evaluate.', { hostedName: 'credential-query-unsupported' }),
  'presentation_exchange.match_budget_exceeded': policy(VALIDATOR, 'Matching the presentations against the presentation definition needs more work than allowed.', {
    note: 'Values selected, filters evaluated and pattern work (characters × RE2 program size), 1,000,000 units per response → `rejected`.',
    hostedName: 'credential-query-evaluation',
  }),
  'presentation_exchange.unsatisfied': policy(VALIDATOR, 'The valid presentations do not satisfy the presentation definition.', { note: 'Derived: listed after the failures that caused it (policy-response, summary error).', hostedName: 'credential-query-evaluation', derived: true }),

  // ── Policy: both local clients (validator: trustedIssuer policy; verifier: x5c chains)
  'trusted_issuer.untrusted': policy(['localValidator', 'localVerifier'] as const, 'The issuer certificate chain does not lead to a trusted anchor or configured trusted issuer root.', { hostedName: 'trusted-issuer-untrusted' }),
  'trusted_issuer.withdrawn': policy(['localValidator', 'localVerifier'] as const, "A trusted list names the issuer, but its service's status is not granted (withdrawn, or not yet granted) at the time judged.", { hostedName: 'trusted-issuer-untrusted' }),
  'trusted_issuer.list_stale': policy(['localValidator', 'localVerifier'] as const, 'The trusted lists that vouch for the issuer are past their NextUpdate plus the configured grace; no fresh list could be loaded.', { hostedName: 'trusted-issuer-validation-error' }),

  // ── Policy: localVerifier (@vp-authorizer/local)
  'format.unsupported': policy(VERIFIER, 'The presentation format is not supported by the local verifier.', { hostedName: 'unsupported-format' }),
  'format.malformed': policy(VERIFIER, 'The presentation could not be decoded.', { hostedName: 'invalid-format' }),
  'proof.signature_invalid': policy(VERIFIER, 'The issuer signature is invalid.', { hostedName: 'proof-verification-failed' }),
  'proof.algorithm_not_allowed': policy(VERIFIER, 'The signature algorithm is not allowed.', { hostedName: 'not-allowed-by-configuration' }),
  'proof.typ_invalid': policy(VERIFIER, 'The credential has an unexpected typ header.', { hostedName: 'proof-verification-failed' }),
  'proof.disclosure_invalid': policy(VERIFIER, 'The selective disclosures are invalid.', { hostedName: 'proof-verification-failed' }),
  'proof.claim_missing': policy(VERIFIER, 'A required claim is missing from the credential.', { hostedName: 'proof-verification-failed' }),
  'proof.key_unresolvable': policy(VERIFIER, 'The issuer key could not be determined.', { hostedName: 'proof-resolve-issuer' }),
  'proof.issuer_mismatch': policy(VERIFIER, 'The issuer claims disagree with each other or with the signing key.', { hostedName: 'proof-verification-failed' }),
  'trusted_issuer.chain_invalid': policy(VERIFIER, 'The issuer certificate chain is invalid.', { hostedName: 'trusted-issuer-validation-error' }),
  'trusted_issuer.weak_algorithm': policy(VERIFIER, 'The issuer certificate chain uses a weak signature algorithm or key.', { hostedName: 'trusted-issuer-validation-error' }),
  'trusted_issuer.x5c_required': policy(VERIFIER, 'The issuer must identify its key with an x5c certificate chain.', { hostedName: 'trusted-issuer-unsupported' }),
  'holder_binding.missing': policy(VERIFIER, 'Cryptographic holder binding is required but missing.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.invalid': policy(VERIFIER, 'The holder binding proof is malformed.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.key_missing': policy(VERIFIER, 'The credential has no holder key to verify the holder binding with.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.signature_invalid': policy(VERIFIER, 'The holder binding signature is invalid.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.nonce_mismatch': policy(VERIFIER, 'The holder binding nonce does not match the request.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.aud_mismatch': policy(VERIFIER, 'The holder binding audience does not match the verifier.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.iat_invalid': policy(VERIFIER, 'The holder binding issuance time is outside the accepted window.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.sd_hash_mismatch': policy(VERIFIER, 'The holder binding sd_hash does not match the presentation.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.transaction_data_mismatch': policy(VERIFIER, 'The transaction data hashes do not match the request.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.transaction_data_unsupported': policy(VERIFIER, 'Transaction data cannot be bound to this credential format.', { hostedName: 'proof-unsupported-feature' }),
  'holder_binding.expired': policy(VERIFIER, 'The holder binding proof has expired.', { hostedName: 'proof-verification-failed' }),
  'holder_binding.subject_mismatch': policy(VERIFIER, 'A credential in the presentation is not bound to the holder that signed it.', { hostedName: 'proof-verification-failed' }),
  'mdoc.invalid': policy(VERIFIER, 'The mdoc DeviceResponse is malformed.', { hostedName: 'invalid-format' }),
  'mdoc.status_error': policy(VERIFIER, 'The DeviceResponse reports an error status.', { hostedName: 'proof-verification-failed' }),
  'mdoc.document_count': policy(VERIFIER, 'The DeviceResponse must contain exactly one document.', { hostedName: 'invalid-format' }),
  'mdoc.digest_mismatch': policy(VERIFIER, 'An issuer-signed element does not match its digest in the MSO.', { hostedName: 'proof-verification-failed' }),
  'mdoc.doctype_mismatch': policy(VERIFIER, 'The MSO docType does not match the document docType.', { hostedName: 'proof-verification-failed' }),
  'mdoc.device_signature_invalid': policy(VERIFIER, 'The mdoc device signature is invalid.', { hostedName: 'proof-verification-failed' }),
  'mdoc.device_mac_unsupported': policy(VERIFIER, 'mdoc device MAC authentication is not supported; a device signature is required.', { hostedName: 'proof-unsupported-feature' }),
  'mdoc.device_key_invalid': policy(VERIFIER, 'The MSO device key is invalid or unsupported.', { hostedName: 'proof-cryptographic-error' }),
  'mdoc.unauthorized_device_element': policy(VERIFIER, 'A device-signed element is not authorized by the MSO key authorizations.', { hostedName: 'proof-verification-failed' }),
  'validity.expired': policy(VERIFIER, 'The credential has expired.'),
  'validity.not_yet_valid': policy(VERIFIER, 'The credential is not yet valid.'),
  'validity.invalid': policy(VERIFIER, 'The credential validity period is malformed.'),
  'status.revoked': policy(VERIFIER, 'The credential has been revoked.'),
  'status.suspended': policy(VERIFIER, 'The credential is suspended.'),
  'status.unknown_value': policy(VERIFIER, 'The credential status has a value the verifier does not accept.'),
  'status.unavailable': policy(VERIFIER, 'The credential status could not be determined.'),
  'status.unsupported': policy(VERIFIER, 'The credential status mechanism is not supported.', { hostedName: 'proof-unsupported-feature' }),
  'data_integrity.context_unknown': policy(['localValidator', 'localVerifier'] as const, 'The document uses a JSON-LD context that is neither bundled with the verifier nor configured; contexts are never fetched.', { hostedName: 'proof-unsupported-feature' }),
  'data_integrity.cryptosuite_unsupported': policy(VERIFIER, 'The Data Integrity proof uses a proof type or cryptosuite this verifier does not verify (or has been configured not to).', { hostedName: 'proof-unsupported-feature' }),
  'data_integrity.limit_exceeded': policy(['localValidator', 'localVerifier'] as const, 'The Data Integrity document is larger, deeper, has more proofs or needs more canonicalization work than allowed.', { hostedName: 'invalid-format' }),
  'data_integrity.document_invalid': policy(['localValidator', 'localVerifier'] as const, 'The document is not JSON-LD that Data Integrity can secure (an undefined term, an invalid IRI or value, a missing member).', { hostedName: 'invalid-format' }),
  'data_integrity.proof_invalid': policy(VERIFIER, 'The Data Integrity proof is malformed, has the wrong purpose or has expired.', { hostedName: 'proof-verification-failed' }),
  'data_integrity.proof_chain_unsupported': policy(VERIFIER, 'The Data Integrity proof is part of a proof chain (previousProof), which this verifier does not verify.', { hostedName: 'proof-unsupported-feature' }),
  'did.invalid': policy(VERIFIER, 'The DID or DID URL is malformed.', { hostedName: 'proof-resolve-issuer' }),
  'did.method_disabled': policy(VERIFIER, 'The DID method is disabled by configuration.', { hostedName: 'not-allowed-by-configuration' }),
  'did.method_unsupported': policy(VERIFIER, 'The DID method is unknown.', { hostedName: 'proof-unsupported-feature' }),
  'did.needs_remote_resolver': policy(VERIFIER, 'The DID method is enabled but needs a remote resolver; the local verifier resolves only did:jwk, did:key and did:web unless a DID resolver is configured.', { hostedName: 'proof-unsupported-feature' }),
  'did.not_found': policy(VERIFIER, 'The DID resolver does not know the DID.', { hostedName: 'proof-resolve-issuer' }),
  'did.resolution_failed': policy(VERIFIER, 'The DID document could not be resolved.', { hostedName: 'proof-resolve-issuer' }),
  'did.key_not_found': policy(VERIFIER, 'The DID document has no matching verification method.', { hostedName: 'proof-resolve-issuer' }),
  'vp.holder_mismatch': policy(VERIFIER, 'The presentation holder does not match its signing key.', { hostedName: 'proof-verification-failed' }),
  'id_token.invalid': policy(VERIFIER, 'The ID token is malformed.', { hostedName: 'invalid-format' }),
  'id_token.not_self_issued': policy(VERIFIER, 'The ID token is not self-issued (iss must equal sub).', { hostedName: 'proof-verification-failed' }),
  'id_token.sub_mismatch': policy(VERIFIER, 'The ID token subject does not match its key.', { hostedName: 'proof-verification-failed' }),
  'id_token.sub_jwk_missing': policy(VERIFIER, 'The ID token has a thumbprint subject but no sub_jwk.', { hostedName: 'proof-verification-failed' }),
  'id_token.sub_jwk_not_allowed': policy(VERIFIER, 'The ID token must not carry sub_jwk with a DID subject.', { hostedName: 'proof-verification-failed' }),
  'id_token.signature_invalid': policy(VERIFIER, 'The ID token signature is invalid.', { hostedName: 'proof-verification-failed' }),
  'id_token.aud_mismatch': policy(VERIFIER, 'The ID token audience does not contain the verifier.', { hostedName: 'proof-verification-failed' }),
  'id_token.nonce_mismatch': policy(VERIFIER, 'The ID token nonce does not match the request.', { hostedName: 'proof-verification-failed' }),
  'id_token.expired': policy(VERIFIER, 'The ID token has expired.', { hostedName: 'proof-verification-failed' }),
  'id_token.not_yet_valid': policy(VERIFIER, 'The ID token is not yet valid (nbf).', { hostedName: 'proof-verification-failed' }),
  'id_token.iat_invalid': policy(VERIFIER, 'The ID token issuance time is outside the accepted window.', { hostedName: 'proof-verification-failed' }),

  // ── Error classes thrown to the host program (caught and turned into one of the codes above
  //    when they happen while processing a response)
  'cbor.refused': thrown('@vp-authorizer/core', 'WalletCborRefused: CBOR from a wallet is malformed or uses something a wallet has no reason to send (becomes format.mdoc_malformed or mdoc.invalid).'),
  'outbound.destination_refused': thrown('@vp-authorizer/core', 'OutboundFetchError: the URL or a resolved address is outside the outbound fetch policy; nothing was sent.'),
  'outbound.timeout': thrown('@vp-authorizer/core', 'OutboundFetchError: no complete response within the time limit.'),
  'outbound.too_large': thrown('@vp-authorizer/core', 'OutboundFetchError: the response is larger than the size limit.'),
  'outbound.redirect': thrown('@vp-authorizer/core', 'OutboundFetchError: the server answered with a redirect, which is never followed.'),
  'outbound.http_status': thrown('@vp-authorizer/core', 'OutboundFetchError: the server answered with an error status.'),
  'outbound.network': thrown('@vp-authorizer/core', 'OutboundFetchError: the request failed.'),
  'trust_list.malformed': thrown('@vp-authorizer/trust-lists', 'TrustListError: the document is not a trusted list of its kind (syntax, missing element, bad date or certificate, older sequence number).'),
  'trust_list.xml_refused': thrown('@vp-authorizer/trust-lists', 'TrustListError: the XML has a DOCTYPE, entity declaration or processing instruction, or exceeds the depth, node or attribute bounds.'),
  'trust_list.too_large': thrown('@vp-authorizer/trust-lists', 'TrustListError: the document is larger than the configured size limit.'),
  'trust_list.signature_invalid': thrown('@vp-authorizer/trust-lists', 'TrustListError: the list signature does not verify (changed after signing, weak or unknown algorithm, expired signing chain).'),
  'trust_list.unknown_signer': thrown('@vp-authorizer/trust-lists', 'TrustListError: the list is signed by a certificate that is not a configured (or LoTL-named) list signer.'),
  'trust_list.stale': thrown('@vp-authorizer/trust-lists', 'TrustListError: the list is past its NextUpdate plus the configured grace.'),
  'trust_list.fetch_failed': thrown('@vp-authorizer/trust-lists', 'TrustListError: the list could not be fetched or read (the outbound-fetch failure is its cause).'),
  'trust_list.not_loaded': thrown('@vp-authorizer/trust-lists', 'TrustListError: the source has never loaded successfully.'),
  'store.record_format': thrown('@vp-authorizer/redis', 'RecordFormatError: a stored value was written by a newer version or not by vp-authorizer at all; not retryable.'),
} as const satisfies Record<string, CodeEntry>;

type Table = typeof CODES;
/** Every code a user can see. */
export type Code = keyof Table;
/** Codes answered over HTTP (the codes of AuthorizerError). */
export type ErrorCode = { [K in Code]: Table[K] extends HttpCodeEntry ? K : never }[Code];
/** Codes that appear as `error.code` of a PolicyResult. */
export type PolicyCode = { [K in Code]: Table[K] extends PolicyCodeEntry ? K : never }[Code];
/** Policy codes a given producer may emit (for example `PolicyCodeOf<'localVerifier'>`). */
export type PolicyCodeOf<P extends PolicyProducer> = { [K in Code]: Table[K] extends PolicyCodeEntry<infer B> ? (P extends B[number] ? K : never) : never }[Code];
/** Codes of error classes thrown by one package (beside the HTTP codes that some classes carry). */
export type ErrorClassCode = { [K in Code]: Table[K] extends ErrorClassCodeEntry ? K : never }[Code];

export const isCode = (value: unknown): value is Code => typeof value === 'string' && Object.hasOwn(CODES, value);
/** An HTTP code of the table (one with a status, an OAuth error and a default message). */
export const isErrorCode = (value: unknown): value is ErrorCode => isCode(value) && CODES[value].kind === 'http';

/** The problem `type` URL of a code. */
export const errorTypeUrl = (code: string): string => `${ERROR_TYPE_BASE}${code}`;

/**
 * The RFC 9457-style error of a policy code: `type`, `title` and `code` from the table, plus the
 * hosted API's name as `vidosType` where it has one.
 */
export function policyProblem<C extends PolicyCode>(code: C, detail?: string): { type: string; title: string; detail?: string; code: C; vidosType?: string } {
  const entry: PolicyCodeEntry = CODES[code];
  return {
    type: errorTypeUrl(code),
    title: entry.title,
    ...(detail === undefined ? {} : { detail }),
    code,
    ...(entry.hostedName === undefined ? {} : { vidosType: entry.hostedName }),
  };
}
