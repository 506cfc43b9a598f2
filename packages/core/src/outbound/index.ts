export { isPublicAddress } from './public-address.js';
export {
  outboundFetchPolicy,
  outboundGet,
  outboundPost,
  checkOutboundUrl,
  DEFAULT_MAX_HEADER_BYTES,
  type OutboundFetchPolicy,
  type OutboundGetRequest,
  type OutboundPostRequest,
  type OutboundResponse,
} from './outbound-fetch-policy.js';
export { OutboundFetchError, type OutboundFetchFailure } from './outbound-fetch-error.js';
export type { OutboundLookup, ResolvedAddress } from './outbound-lookup.js';
