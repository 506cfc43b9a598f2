// @peculiar/x509 (via tsyringe) needs the Reflect metadata polyfill before it loads.
import 'reflect-metadata';

// The verifier and the validator.
export { DATA_INTEGRITY_LIMITS, localVerifier, SUPPORTED_ALGS, type DataIntegrityLimit, type LocalVerifierOptions, type SupportedAlg, type VerifierErrorCode } from './verifier/index.js';
export { localValidator, type LocalValidatorOptions, type ValidatorErrorCode } from './validator/index.js';

// What they are built from, for code that checks a part on its own.
export { verifyCertificateChain, authorityKeyIdentifiers, parseCertificate, parsePemCertificates, parseTrustAnchors, type ChainVerification, type ParsedCertificate } from './x509/index.js';
export {
  StatusListClient,
  decodeStatusList,
  readStatusValue,
  STATUS_VALID,
  STATUS_INVALID,
  STATUS_SUSPENDED,
  StatusListError,
  type StatusListClientOptions,
  type StatusLookup,
  type StatusList,
} from './status-list/index.js';
export {
  resolveDidKey,
  resolveDidDocument,
  DidResolutionError,
  didWebUrl,
  multikeyToJwk,
  httpDidResolver,
  type DidResolverOptions,
  type DidErrorCode,
  type DidDocument,
  type ResolvedDidKey,
  type VerificationMethod,
  type VerificationRelationship,
  type HttpDidResolverOptions,
  type DidDocumentResolver,
  type DidDocumentResolveOptions,
  type EbsiEnvironment,
  type PublicKeyEncoding,
} from './did/index.js';

// The outbound-fetch policy (from @vp-authorizer/core), for code that configured the local verifier with it.
export { isPublicAddress, outboundFetchPolicy, OutboundFetchError, type OutboundFetchPolicy, type OutboundFetchFailure, type OutboundLookup, type ResolvedAddress } from './outbound/index.js';

// W3C Data Integrity.
export { DATA_INTEGRITY_CRYPTOSUITES, type DataIntegrityCryptosuite } from './data-integrity/cryptosuites.js';
export { BUNDLED_CONTEXTS_VERSION } from './data-integrity/bundled-contexts.js';

// Trust from lists (ETSI TS 119 612/602, VICAL) through @vp-authorizer/trust-lists.
export type { IssuerAnchorSource, IssuerAnchorQuery, IssuerAnchorAnswer, IssuerDidQuery, IssuerDidAnswer } from './x509/issuer-anchors.js';
