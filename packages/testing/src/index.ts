// The main entry loads in plain Node (ESM or CJS) with neither vitest nor playwright installed:
// the test wallet, issuer, CA and status-list helpers, plus the framework-free helpers the suites
// are driven with. The vitest-based contract suites live behind `@vp-authorizer/testing/contracts`.

// The test wallet: receiving a request, presenting credentials, encrypting the response.
export { createTestWallet, type RespondOptions, type PreparedResponse, type SubmitResult, type TestWallet } from './wallet/test-wallet.js';
export { answerWithTestPid, type AnswerWithTestPidOptions } from './wallet/answer-with-test-pid.js';
export { allowInsecureUrlsForTests, receiveAuthorizationRequest, checkRequestObjectHeader, checkSignerHeader, clientIdMatchesLeaf, toReceivedRequest, RequestObjectFetchError, type ReceiveOptions } from './wallet/receive-request.js';
export type { FetchBounds } from './wallet/fetch-bounded.js';
export { expectedAudience, isDcApiRequest, type WalletDcqlQuery, type WalletPresentationDefinition, type ReceivedRequest } from './wallet/received-request.js';
export { receiveDcApiRequest, verifyMultiSignedRequest, type DcApiGetRequest, type CheckedSignature } from './wallet/dc-api-request.js';
export {
  checkAnnexCReaderAuth,
  receiveAnnexCRequest,
  respondAnnexC,
  type AnnexCGetRequest,
  type AnnexCReaderAuthOptions,
  type AnnexCTamper,
  type ReceivedAnnexCRequest,
} from './wallet/annex-c-response.js';
export { DEFAULT_WALLET_METADATA } from './wallet/wallet-metadata.js';
export type { ClaimPath, SdJwtWalletCredential, MdocWalletCredential, JwtVcWalletCredential, WalletCredential, PresentationTamper, Presentation } from './wallet/wallet-credential.js';
export { presentSdJwt, presentationFrame, type SdJwtPresentationInput } from './wallet/sd-jwt-presentation.js';
export { presentMdoc, type MdocPresentationInput } from './wallet/mdoc-presentation.js';
export { presentJwtVc } from './wallet/jwt-vp.js';
export { createSiopIdToken, type IdTokenTamper } from './wallet/siop-id-token.js';
export { selectEncryptionJwk, encryptResponse, type ResponseEnc } from './wallet/encrypt-response.js';
export { transactionDataHashes } from './wallet/transaction-data-hashes.js';
export { matchDcql, matchPresentationDefinition } from './wallet/match-credentials.js';
export { jwkThumbprintBytes, handoverInfoHash, sessionTranscriptBytes, type HandoverInput } from './wallet/session-transcript.js';
export { generateP256KeyPair, type P256KeyPair } from './wallet/holder-key.js';
export { didJwk } from './wallet/did-jwk.js';
export { toBase64Url, base64UrlToBytes, base64UrlToText } from './wallet/base64url.js';

// The test issuer, its certificate authority and Token Status Lists.
export { createTestIssuer, type StatusReference, type IssueSdJwtVcOptions, type IssueMdocOptions, type IssuedMdoc, type IssueJwtVcOptions, type CreateStatusListTokenOptions, type TestIssuer, type CreateTestIssuerOptions } from './wallet/test-issuer.js';
export { generateTestKeys, withIssue, createTestCa, testCaFromPem, createSelfSignedLeaf, authorityKeyIdentifier, type TestKeys, type IssuedCertificate, type TestCa, type IssueOptions, type TestCaOptions } from './wallet/test-ca.js';
export { encodeStatusList, readStatusList, type StatusListBits } from './wallet/status-list.js';
export { startStatusListServer, type StatusListServer } from './wallet/status-list-server.js';

// A test issuer saved on disk, and the `vp-authorizer issuer` and `wallet` commands (local development).
export { saveTestIssuer, loadTestIssuer, TEST_ISSUER_FILES, type SavedTestIssuer } from './dev/persistent-test-issuer.js';
export { issueCredentialsFor, type MintedCredential } from './dev/credentials-for-query.js';
export { runDevCommand, DEV_USAGE, type DevCommandOutput } from './dev/dev-command.js';

// An authorizer for tests of the HTTP flow, and its event streams.
export {
  createPassThroughAuthorizer,
  startPassThroughAuthorizer,
  testSigningKey,
  TEST_API_KEY,
  TEST_OTHER_API_KEY,
  TEST_MOUNT_PATH,
  type PassThroughAuthorizerOptions,
  type PassThroughAuthorizerServer,
} from './authorizer/pass-through-authorizer.js';
export { openEventStream, type EventStreamReader, type EventStreamItem } from './authorizer/event-stream-reader.js';

// Stores, servers and requests.
export { createTestClock, type TestClock } from './store-contract/test-clock.js';
export { makeTestRecord } from './store-contract/make-test-record.js';
export { listenOnLoopback, freeLoopbackPort } from './http-contract/listen.js';
export { fetchHandlerTarget } from './http-contract/fetch-handler-target.js';
export { createFakeAuthorizer, FAKE_SECRET_DETAIL, type FakeAuthorizer } from './http-contract/fake-authorizer.js';
export type { HttpTarget, HttpTargetMount, MountedHttpTarget } from './http-contract/http-target.js';
export type { CorsTarget, CorsTargetStart } from './cors-contract/cors-target.js';
export { rawRequest, header, headerList, type RawResponse } from './cors-contract/raw-request.js';
export { startTcpProxy, type TcpProxy } from './net/tcp-proxy.js';
export { writeUntilClosed } from './net/write-until-closed.js';
export { startFakeAwsKms, type FakeAwsKms, type FakeAwsKmsMode } from './kms/fake-aws-kms.js';

// Status webhooks.
export { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhooks/webhook-receiver.js';
export { webhookSignatureProblem } from './webhooks/verify-webhook-signature.js';

// Signed trusted lists (ETSI TS 119 612) for tests of trust-list sources.
export { createListSigner, type ListSigner } from './trust-lists/list-signer.js';
export { trustedListXml, signTrustedList, buildSignedList, GRANTED, WITHDRAWN, GENERIC, LOTL, type ListSpec, type ServiceSpec, type PointerSpec } from './trust-lists/trusted-list.js';

// PostgreSQL suites: the URL of the private cluster (scripts/with-postgres.mjs) and a fresh schema name.
export { postgresUrlForTests, testSchema } from './postgres/postgres-test-env.js';
