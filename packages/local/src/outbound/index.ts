// The outbound-fetch policy lives in @vp-authorizer/core (webhook deliveries use it too); these
// names stay exported here for code that configured the local verifier with them.
export { isPublicAddress, outboundFetchPolicy, OutboundFetchError, type OutboundFetchPolicy, type OutboundFetchFailure, type OutboundLookup, type ResolvedAddress } from '@vp-authorizer/core';
