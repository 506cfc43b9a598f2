import type { RequestSigner } from '../model/request-signer.js';

/** What every signing identity may set, whatever holds its key. */
interface SigningIdentityOptions {
  /** PEM of the root, served at /instances/oid4vp-trust-anchor. */
  trustAnchor?: string;
  /**
   * The client identifier prefix this identity signs under; default `openId4vp.clientIdPrefix`.
   * On the first (primary) identity it may only repeat that setting.
   */
  clientIdPrefix?: 'x509_hash' | 'x509_san_dns';
  /**
   * Rotation: an identity on its way out. It signs nothing new (no multi-signed request carries it,
   * it is never the primary) but stays in /jwks and still signs the request objects of the
   * authorizations created under it; remove it once `openId4vp.expiresAfter` has passed since it
   * stopped being the primary.
   */
  retired?: boolean;
}

/** A key held in this process (the default). */
export interface KeySigningInput extends SigningIdentityOptions {
  /** P-256 private key: a JWK or a PKCS#8 (or SEC1) PEM. */
  privateKey: JsonWebKey | string;
  /** PEM or base64 DER, leaf first, WITHOUT the trust anchor (HAIP). */
  certificateChain: string[];
  signer?: never;
}

/** A key held elsewhere (PKCS#11 token, cloud KMS), reached through a {@link RequestSigner}. */
export interface SignerSigningInput extends SigningIdentityOptions {
  /** Signs for this identity; its `certificateChain` is the chain (leaf first, without the anchor). */
  signer: RequestSigner;
  /** Longest wait for one `sign` call in ms (default 5000, at most 60000); past it the request answers 503 `signing.unavailable`. */
  timeoutMs?: number;
  privateKey?: never;
  certificateChain?: never;
}

/** How an instance's request-signing key and certificate chain are configured: a key in this process, or a signer. */
export type SigningInput = KeySigningInput | SignerSigningInput;

/**
 * An instance's `signing` option: one identity, or several. The first is the primary: it signs
 * request objects and signed DC API requests; multi-signed DC API requests carry one signature
 * per identity (OpenID4VP 1.0 appendix A.3.2), each with its own client_id and x5c.
 */
export type SigningOption = SigningInput | SigningInput[];
