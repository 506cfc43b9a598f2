// `@vp-authorizer/core/internal`: what the project's own packages (@vp-authorizer/local, @vp-authorizer/trust-lists) build on
// and applications do not need. No stability promise: it follows the packages that use it.

// Fetching through the outbound policy (did:web documents, status lists).
export { outboundGet, checkOutboundUrl, DEFAULT_MAX_HEADER_BYTES, type OutboundGetRequest, type OutboundResponse } from './outbound/outbound-fetch-policy.js';
// A Node answer written in one writeHead call, for the Fastify plugin (which keeps the headers on its reply).
export { writeNodeResponseInOneHead } from './http/node-bridge.js';
// The DID-methods configuration with its defaults, as the verifier receives it.
export { didMethodsConfigSchema } from './model/did-methods-config.js';
// Validation of configuration objects with "did you mean" for unknown members, and the instance
// configuration's schema: @vp-authorizer/server checks its configuration file with them.
export { parseConfig } from './config/validate-config.js';
export { instanceConfigSchema } from './config/instance-config.js';
// The steps of an ISO/IEC 18013-7 Annex C response before the store, as the pipeline runs them:
// the bench times decrypt + verify through these very functions.
export { decryptAnnexCResponse } from './response/decrypt-annex-c-response.js';
export { annexCVpToken } from './response/annex-c-vp-token.js';
export { annexCTranscriptInput, type AnnexCTranscriptInput } from './authorization/session-transcript-input.js';
