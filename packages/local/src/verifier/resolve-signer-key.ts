import type { KeyObject } from 'node:crypto';
import type { VerificationRelationship } from '../did/did-document.js';
import { DidResolutionError } from '../did/did-resolution-error.js';
import { resolveDidKey } from '../did/resolve-did-key.js';
import { authorityKeyIdentifiers } from '../x509/authority-key-identifiers.js';
import { verifyCertificateChain } from '../x509/verify-certificate-chain.js';
import { PolicyFailure } from './policy-failure.js';
import { publicKeyFromJwk, type JwsHeader } from './jws.js';
import type { VerifierContext } from './verifier-context.js';

export interface SignerKey {
  key: KeyObject;
  /** Safe to return in result data: certificate subjects, DIDs, key ids. */
  data: Record<string, unknown>;
}

/** Key of a DID signer (`kid` DID URL and/or `did`); DID errors become `did.*` policy failures. */
export async function resolveDidSignerKey(input: { did?: string; kid?: string }, purpose: VerificationRelationship, ctx: VerifierContext): Promise<SignerKey> {
  try {
    const resolved = await resolveDidKey(input, purpose, {
      didMethods: ctx.didMethods,
      fetch: ctx.options.fetch,
      timeoutMs: ctx.options.didWeb.timeoutMs,
      maxBytes: ctx.options.didWeb.maxBytes,
      signal: ctx.signal,
    });
    return { key: publicKeyFromJwk(resolved.jwk, 'did.key_not_found', 'DID verification method key'), data: { did: resolved.did, kid: resolved.keyId } };
  } catch (error) {
    if (error instanceof DidResolutionError) throw new PolicyFailure(error.code, error.message);
    throw error;
  }
}

/** Key from an x5c chain validated against the trust anchors (HAIP: leaf must not be a self-signed anchor). */
export async function resolveX5cKey(x5c: unknown, ctx: VerifierContext): Promise<SignerKey> {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string' || c instanceof Uint8Array)) {
    throw new PolicyFailure('trusted_issuer.chain_invalid', 'x5c must be a non-empty array of certificates');
  }
  const chain = await verifyCertificateChain(x5c as string[] | Uint8Array[], ctx.options.trustAnchors, new Date(ctx.now));
  if (!chain.valid) throw new PolicyFailure(chain.code, chain.detail);
  if (ctx.haip && chain.leafIsAnchor) throw new PolicyFailure('trusted_issuer.chain_invalid', 'HAIP requires a signing certificate that is not a self-signed trust anchor');
  return {
    key: chain.leaf.node.publicKey,
    data: { x5cSubject: chain.leaf.cert.subject, x5cIssuer: chain.leaf.cert.issuer, trustAnchor: chain.anchor.cert.subject, authorityKeyIdentifiers: authorityKeyIdentifiers(chain.chain) },
  };
}

/**
 * The issuer key of a JWS-signed credential: x5c when present (required when `requireX5c`), else
 * a DID `kid` / DID `iss`. Other key discovery (JWT VC issuer metadata) is not supported.
 */
export async function resolveIssuerKey(header: JwsHeader, issuer: unknown, ctx: VerifierContext, requireX5c: boolean): Promise<SignerKey> {
  if (header.x5c !== undefined) return resolveX5cKey(header.x5c, ctx);
  if (requireX5c) throw new PolicyFailure('trusted_issuer.x5c_required');
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const did = typeof issuer === 'string' && issuer.startsWith('did:') ? issuer : undefined;
  if (did !== undefined || kid?.startsWith('did:')) return resolveDidSignerKey({ ...(did ? { did } : {}), ...(kid ? { kid } : {}) }, 'assertionMethod', ctx);
  throw new PolicyFailure('proof.key_unresolvable', 'The issuer key is identified neither by x5c nor by a DID; JWT VC issuer metadata is not supported');
}
