import { DID_METHODS, type DidMethod, type DidMethodsConfig, type OutboundFetchPolicy } from '@vp-authorizer/core';
import type { DidDocument, ResolvedDidKey, VerificationRelationship } from './did-document.js';
import { resolveDidJwk } from './did-jwk.js';
import { resolveDidKey as resolveDidKeyDocument } from './did-key.js';
import { DidResolutionError } from './did-resolution-error.js';
import type { DidDocumentResolver } from './http-did-resolver.js';
import { resolveDidWeb } from './did-web.js';
import { parseDidUrl } from './parse-did-url.js';
import { selectVerificationMethod } from './select-verification-method.js';

export interface DidResolverOptions {
  didMethods: DidMethodsConfig;
  /** Where did:web may fetch from (the verifier's outbound fetch policy). */
  outbound: OutboundFetchPolicy;
  /** did:web fetch limits. */
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
  /** Resolves every enabled method the built-in code cannot (all but jwk, key and web). */
  resolver?: DidDocumentResolver;
}

const BUILT_IN = new Set<DidMethod>(['jwk', 'key', 'web']);

/** Resolves a DID document with the built-in methods, honouring the DID-method configuration. */
export async function resolveDidDocument(did: string, options: DidResolverOptions): Promise<DidDocument> {
  const { method, id, did: bare } = parseDidUrl(did);
  if (!(DID_METHODS as readonly string[]).includes(method)) throw new DidResolutionError('did.method_unsupported', `The DID method "${method}" is not supported`);
  if (!options.didMethods.methods[method as DidMethod]?.enabled) throw new DidResolutionError('did.method_disabled', `The DID method "${method}" is disabled in the DID-method configuration`);
  if (!BUILT_IN.has(method as DidMethod)) {
    if (options.resolver) return options.resolver.resolve(bare, { didMethods: options.didMethods, outbound: options.outbound, signal: options.signal });
    throw new DidResolutionError('did.needs_remote_resolver', `The DID method "${method}" is enabled but the local verifier resolves only did:jwk, did:key and did:web; configure a DID resolver (didResolver: httpDidResolver(…)) or use a remote verifier`);
  }
  if (method === 'jwk') return resolveDidJwk(bare, id);
  if (method === 'key') return resolveDidKeyDocument(bare, id);
  return resolveDidWeb(bare, id, options);
}

/**
 * The public key a signature with `kid` (a DID URL, or a fragment relative to `did`) was made
 * with, authorized for `purpose`. `did` is the signer's DID when known (JWT `iss`).
 */
export async function resolveDidKey(input: { did?: string; kid?: string }, purpose: VerificationRelationship, options: DidResolverOptions): Promise<ResolvedDidKey> {
  const kidDid = input.kid?.startsWith('did:') ? parseDidUrl(input.kid).did : undefined;
  const did = input.did !== undefined ? parseDidUrl(input.did).did : kidDid;
  if (did === undefined) throw new DidResolutionError('did.invalid', 'Neither the issuer nor the kid is a DID');
  if (kidDid !== undefined && kidDid !== did) throw new DidResolutionError('did.key_not_found', 'The kid belongs to a different DID than the signer');
  const doc = await resolveDidDocument(did, options);
  return selectVerificationMethod(doc, input.kid, purpose, options.didMethods.response.preferredPublicKeyEncoding);
}
