/** How an instance's request-signing key and certificate chain are configured. */
export interface SigningInput {
  /** P-256 private key: a JWK or a PKCS#8 (or SEC1) PEM. */
  privateKey: JsonWebKey | string;
  /** PEM or base64 DER, leaf first, WITHOUT the trust anchor (HAIP). */
  certificateChain: string[];
  /** PEM of the root, served at /instances/oid4vp-trust-anchor. */
  trustAnchor?: string;
  /**
   * The client identifier prefix this identity signs under; default `openId4vp.clientIdPrefix`.
   * On the first (primary) identity it may only repeat that setting.
   */
  clientIdPrefix?: 'x509_hash' | 'x509_san_dns';
}

/**
 * An instance's `signing` option: one identity, or several. The first is the primary: it signs
 * request objects and signed DC API requests; multi-signed DC API requests carry one signature
 * per identity (OpenID4VP 1.0 appendix A.3.2), each with its own client_id and x5c.
 */
export type SigningOption = SigningInput | SigningInput[];
