import type { KeyObject } from 'node:crypto';
import type { VerificationRelationship } from '../did/did-document.js';
import { DidResolutionError } from '../did/did-resolution-error.js';
import { resolveDidKey } from '../did/resolve-did-key.js';
import { authorityKeyIdentifiers } from '../x509/authority-key-identifiers.js';
import { publicKeyOf, type ParsedCertificate } from '../x509/certificate.js';
import { anchorsForChain } from '../x509/issuer-anchors.js';
import { verifyCertificateChain } from '../x509/verify-certificate-chain.js';
import { PolicyFailure } from './policy-failure.js';
import { publicKeyFromJwk, type JwsHeader } from './jws.js';
import type { VerifierContext } from './verifier-context.js';

export interface SignerKey {
  key: KeyObject;
  /** Safe to return in result data: certificate subjects, DIDs, key ids. */
  data: Record<string, unknown>;
  /** The x5c leaf and the anchor it chains to, when the key came from a certificate chain. */
  x5c?: { leaf: ParsedCertificate; anchor: ParsedCertificate };
}

/** Key of a DID signer (`kid` DID URL and/or `did`); DID errors become `did.*` policy failures. */
export async function resolveDidSignerKey(input: { did?: string; kid?: string }, purpose: VerificationRelationship, ctx: VerifierContext): Promise<SignerKey> {
  try {
    const resolved = await resolveDidKey(input, purpose, {
      didMethods: ctx.didMethods,
      outbound: ctx.options.outboundPolicy,
      timeoutMs: ctx.options.didWeb.timeoutMs,
      maxBytes: ctx.options.didWeb.maxBytes,
      signal: ctx.signal,
      ...(ctx.options.didResolver ? { resolver: ctx.options.didResolver } : {}),
    });
    return { key: publicKeyFromJwk(resolved.jwk, 'did.key_not_found', 'DID verification method key'), data: { did: resolved.did, kid: resolved.keyId } };
  } catch (error) {
    if (error instanceof DidResolutionError) throw new PolicyFailure(error.code, error.message);
    throw error;
  }
}

/** What the credential says it is, for anchors that vouch only for some credential types (trusted lists). */
export interface ChainSubject {
  credentialTypes: readonly string[];
  /** Epoch ms. */
  issuedAt?: number;
}

/** Key from an x5c chain validated against the trust anchors (HAIP: no anchor in x5c, leaf not an anchor). */
export async function resolveX5cKey(x5c: unknown, ctx: VerifierContext, subject: ChainSubject = { credentialTypes: [] }): Promise<SignerKey> {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string' || c instanceof Uint8Array)) {
    throw new PolicyFailure('trusted_issuer.chain_invalid', 'x5c must be a non-empty array of certificates');
  }
  const { anchors, refusal } = await anchorsForChain(ctx.options.trustAnchors, ctx.options.issuerAnchors, x5c as string[] | Uint8Array[], { purpose: 'credential', ...subject });
  const chain = await verifyCertificateChain(x5c as string[] | Uint8Array[], anchors, new Date(ctx.now));
  // A listed-but-withdrawn or stale-list issuer says so rather than "untrusted".
  if (!chain.valid && chain.code === 'trusted_issuer.untrusted' && refusal) throw new PolicyFailure(refusal.code, refusal.detail);
  if (!chain.valid) throw new PolicyFailure(chain.code, chain.detail);
  if (ctx.haip && chain.leafIsAnchor) throw new PolicyFailure('trusted_issuer.chain_invalid', 'HAIP requires a signing certificate that is not a self-signed trust anchor');
  if (ctx.haip && chain.anchorIncluded) throw new PolicyFailure('trusted_issuer.chain_invalid', 'HAIP requires an x5c without the trust anchor');
  return {
    key: publicKeyOf(chain.leaf),
    x5c: { leaf: chain.leaf, anchor: chain.anchor },
    data: { x5cSubject: chain.leaf.cert.subject, x5cIssuer: chain.leaf.cert.issuer, trustAnchor: chain.anchor.cert.subject, authorityKeyIdentifiers: authorityKeyIdentifiers(chain.chain) },
  };
}

/**
 * The issuer key of a JWS-signed credential: x5c when present (required when `requireX5c`), else
 * the DID `iss` (with an optional DID URL `kid` of that same DID). A DID key speaks only for its
 * own DID, so a DID `kid` under any other (or no) issuer is rejected. Other key discovery (JWT VC
 * issuer metadata) is not supported.
 */
export async function resolveIssuerKey(header: JwsHeader, issuer: unknown, ctx: VerifierContext, requireX5c: boolean, subject?: ChainSubject): Promise<SignerKey> {
  if (header.x5c !== undefined) return resolveX5cKey(header.x5c, ctx, subject);
  if (requireX5c) throw new PolicyFailure('trusted_issuer.x5c_required');
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const did = typeof issuer === 'string' && issuer.startsWith('did:') ? issuer : undefined;
  if (did === undefined && kid?.startsWith('did:')) throw new PolicyFailure('proof.issuer_mismatch', 'The key is a DID key but the issuer is not that DID');
  if (did === undefined) throw new PolicyFailure('proof.key_unresolvable', 'The issuer key is identified neither by x5c nor by a DID; JWT VC issuer metadata is not supported');
  const signer = await resolveDidSignerKey({ did, ...(kid ? { kid } : {}) }, 'assertionMethod', ctx);
  // The issuer must be the bare DID whose document holds the key (not a DID URL of it).
  if (signer.data.did !== did) throw new PolicyFailure('proof.issuer_mismatch', 'The issuer is not the DID the key belongs to');
  return signer;
}
