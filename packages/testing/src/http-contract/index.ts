export { describeHttpContract, type HttpContractOptions, type HttpContractStore } from './describe-http-contract.js';
export type { HttpTarget, HttpTargetMount, MountedHttpTarget } from './http-target.js';
export { fetchHandlerTarget } from './fetch-handler-target.js';
export { createFakeAuthorizer, FAKE_SECRET_DETAIL, type FakeAuthorizer } from './fake-authorizer.js';
export { listenOnLoopback } from './listen.js';
export { createResponseValidator, type ReceivedAnswer } from './openapi-response-validator.js';
export { contractDcql, contractPresentationDefinition, encryptWalletResponse, issueContractSdJwt, verifyRequestObject, TEST_VCT } from './contract-wallet.js';
