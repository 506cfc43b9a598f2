// The contract suites (HTTP, store, CORS): they call vitest's describe/it at import, so this entry
// is ESM-only and needs vitest. It also re-exports the helpers a suite is driven with, so a
// contract test imports from one place.

// Stores.
export { describeStoreContract, type StoreContractSubject, type StoreContractFactory } from './store-contract/describe-store-contract.js';
export { makeTestRecord } from './store-contract/make-test-record.js';
export { createTestClock, type TestClock } from './store-contract/test-clock.js';

// The HTTP contract, its targets and the OpenAPI answer check.
export { describeHttpContract, type HttpContractOptions, type HttpContractStore } from './http-contract/describe-http-contract.js';
export type { HttpTarget, HttpTargetMount, MountedHttpTarget } from './http-contract/http-target.js';
export { fetchHandlerTarget } from './http-contract/fetch-handler-target.js';
export { createFakeAuthorizer, FAKE_SECRET_DETAIL, type FakeAuthorizer } from './http-contract/fake-authorizer.js';
export { listenOnLoopback } from './http-contract/listen.js';
export { createResponseValidator, type ReceivedAnswer } from './http-contract/openapi-response-validator.js';
export { contractDcql, contractPresentationDefinition, encryptWalletResponse, issueContractSdJwt, verifyRequestObject, TEST_VCT } from './http-contract/contract-wallet.js';

// Event streams.
export { describeEventStreamContract } from './http-contract/describe-event-stream-contract.js';

// CORS.
export { describeCorsContract } from './cors-contract/describe-cors-contract.js';
export { describeCorsBrowserContract, type CorsBrowserOptions } from './cors-contract/describe-cors-browser-contract.js';
export type { CorsTarget, CorsTargetStart } from './cors-contract/cors-target.js';
export { rawRequest, header, headerList, type RawResponse } from './cors-contract/raw-request.js';
