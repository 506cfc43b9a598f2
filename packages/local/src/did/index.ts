export { resolveDidKey, resolveDidDocument, type DidResolverOptions } from './resolve-did-key.js';
export { DidResolutionError, type DidErrorCode } from './did-resolution-error.js';
export type { DidDocument, ResolvedDidKey, VerificationMethod, VerificationRelationship } from './did-document.js';
export { didWebUrl } from './did-web.js';
export { multikeyToJwk } from './multikey.js';
export { httpDidResolver, type HttpDidResolverOptions, type DidDocumentResolver, type DidDocumentResolveOptions, type EbsiEnvironment } from './http-did-resolver.js';
export type { PublicKeyEncoding } from './public-key-encoding.js';
