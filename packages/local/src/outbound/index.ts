export { isPublicAddress } from './public-address.js';
export { outboundFetchPolicy, type OutboundFetchPolicy } from './outbound-fetch-policy.js';
export { OutboundFetchError, type OutboundFetchFailure } from './outbound-fetch-error.js';
export type { OutboundLookup, ResolvedAddress } from './outbound-lookup.js';
