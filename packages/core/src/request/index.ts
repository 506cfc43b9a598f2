// Public API of the request side. Internal helpers (pointers, tokens) stay unexported to keep
// the package surface small and free of name clashes with other barrels.
export {
  checkSigningInput,
  checkSigningIdentities,
  loadSigningMaterial,
  loadSigningIdentities,
  clientIdFor,
  type ClientIdPrefix,
  type SigningIdentity,
  type SigningInput,
  type SigningOption,
  type SigningMaterial,
} from './signing-material.js';
export {
  createAuthorizationBodySchema,
  parseCreateAuthorizationBody,
  isDcApiBody,
  transactionDataOf,
  verifierInfoOf,
  NONCE_PATTERN,
  type CreateAuthorizationBody,
  type DirectPostAuthorizationBody,
  type DcApiAuthorizationBody,
  type VerifierInfoEntry,
} from './create-authorization-body.js';
export { dcqlQuerySchema } from './dcql-query.js';
export { presentationDefinitionSchema } from './presentation-definition.js';
export { decodeTransactionData, type TransactionDataEntry } from './transaction-data.js';
export { isExpectedOrigin } from '../config/origin.js';
export { enforceHaipOnCreate, checkWalletMetadata, parseWalletMetadataParam, queryFormats } from './haip-rules.js';
export { buildClientMetadata, vpFormatsSupported, ENCRYPTED_RESPONSE_ENC_VALUES } from './client-metadata.js';
export { acceptedAlgorithms } from './accepted-algorithms.js';
export {
  signRequestObject,
  signMultiSignedRequestObject,
  requestObjectPayload,
  REQUEST_OBJECT_TYP,
  SELF_ISSUED_AUDIENCE,
  type RequestObjectArgs,
  type MultiSignedRequest,
} from './sign-request-object.js';
export { buildDigitalCredentialGetRequest, type DigitalCredentialGetRequest, type UnsignedDcApiRequestData } from './dc-api-request.js';
export { buildAuthorizeUrl } from './authorize-url.js';
export { generateEncryptionKey } from './encryption-key.js';
export {
  buildAuthorization,
  requestUriFor,
  responseUriFor,
  type CreateAuthorizationResponse,
  type DirectPostAuthorizationResponse,
  type DcApiAuthorizationResponse,
} from './build-authorization.js';
export { x509Hash } from '../crypto/x509-hash.js';
