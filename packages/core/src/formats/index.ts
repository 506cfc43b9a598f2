// `@vp-authorizer/core/formats`: the credential format registry and what a format is made of, for
// code outside core that dispatches on formats (`@vp-authorizer/local`) and for adding a format.
export type { AlgorithmSets, AnyFormatDescriptor, FamilyPresentation, FormatDescriptor, FormatFamily, ParseOptions, PresentationRef, QueryIssue } from './format-descriptor.js';
export {
  FORMATS,
  allowedUnderHaip,
  dispatchByFamily,
  extractCredentials,
  formatDescriptor,
  formatFamily,
  formatNames,
  haipFormatIds,
  isSupportedFormat,
  presentationFormat,
  sameFormat,
  type FamilyHandlers,
} from './registry.js';
export { sdJwtVc, SD_JWT_VC_TYPES } from './sd-jwt-vc/descriptor.js';
export { MAX_DISCLOSURE_NESTING, MAX_SD_JWT_DISCLOSURES } from './sd-jwt-vc/parse-sd-jwt.js';
export { decodedInProcess, type DecodedSdJwt } from './sd-jwt-vc/decoded-in-process.js';
export { msoMdoc } from './mso-mdoc/descriptor.js';
export { MAX_MDOC_DOCUMENTS } from './mso-mdoc/parse-mdoc.js';
export { jwtVc, jwtVcJson, jwtVcJsonLd, jwtVp, jwtVpJson } from './jwt-vc/descriptors.js';
export { ldp, ldpVc, ldpVp } from './ldp/descriptors.js';
export { FormatFailure, formatErrorResult, type FormatErrorCode } from './format-error.js';
export { runFormatPolicy, type FormatInput, type FormatOutcome } from './policy/run-format-policy.js';
export { parsePresentation, type PresentationLocation } from './policy/parse-presentation.js';
export { MAX_PRESENTATIONS_PER_QUERY } from './policy/parse-dcql-vp-token.js';
export { CborBudget, CborBudgetExceeded, DEFAULT_CBOR_BUDGET } from './shared/cbor-budget.js';
export { decodeWalletCbor, WalletCborRefused } from './shared/wallet-cbor.js';
export { cborToJson } from './shared/cbor-to-json.js';
export { MAX_JSON_DEPTH, withinJsonDepth } from './shared/json-depth.js';
// JSON Schema `pattern` of Presentation Exchange filters: the linear-time engine and its limits.
export { compileFilterPattern, type CompiledFilterPattern, type FilterPattern } from '../pattern/filter-pattern.js';
export { MAX_DEFINITION_PATTERN_LENGTH, MAX_DEFINITION_PATTERN_PROGRAM, MAX_DEFINITION_PATTERNS, MAX_PATTERN_INPUT } from '../pattern/filter-pattern-limits.js';
export type * from '../model/parsed-presentation.js';
export type { ExtractedCredential } from '../model/extracted-credential.js';
// The handover and session-transcript hashing an mdoc or a DC API verifier repeats.
export { handoverInfoHash, jwkThumbprint, sessionTranscriptBytes } from '../crypto/session-transcript.js';
export type { SessionTranscriptInput } from '../model/verifier-client.js';
// ISO/IEC 18013-5 readerAuth as a wallet checks it (Annex C requests), and the reader certificate profile.
export { READER_AUTH_ALGS, readerAuthenticationBytes, verifyReaderAuth, type ReaderAuthAlg, type ReaderAuthVerification } from '../crypto/reader-authentication.js';
export { MDOC_READER_AUTH_EKU, readerCertificateProblems } from '../crypto/reader-certificate.js';
