// The main entry loads in plain Node (ESM or CJS) with neither vitest nor playwright installed:
// the test wallet, issuer, CA and status-list helpers, plus the framework-free helpers the suites
// are driven with. The vitest-based contract suites live behind `@vp-authorizer/testing/contracts`.
export * from './wallet/index.js';
export { createTestClock, type TestClock } from './store-contract/test-clock.js';
export { makeTestRecord } from './store-contract/make-test-record.js';
export { listenOnLoopback } from './http-contract/listen.js';
export { createFakeAuthorizer, FAKE_SECRET_DETAIL, type FakeAuthorizer } from './http-contract/fake-authorizer.js';
export type { HttpTarget, HttpTargetMount, MountedHttpTarget } from './http-contract/http-target.js';
export type { CorsTarget, CorsTargetStart } from './cors-contract/cors-target.js';
export { rawRequest, header, headerList, type RawResponse } from './cors-contract/raw-request.js';
export { startTcpProxy, type TcpProxy } from './net/tcp-proxy.js';
export * from './webhooks/index.js';
export * from './trust-lists/index.js';
export { postgresUrlForTests, testSchema } from './postgres/postgres-test-env.js';
