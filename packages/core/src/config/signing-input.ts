/** How an instance's request-signing key and certificate chain are configured. */
export interface SigningInput {
  /** P-256 private key: a JWK or a PKCS#8 (or SEC1) PEM. */
  privateKey: JsonWebKey | string;
  /** PEM or base64 DER, leaf first, WITHOUT the trust anchor (HAIP). */
  certificateChain: string[];
  /** PEM of the root, served at /instances/oid4vp-trust-anchor. */
  trustAnchor?: string;
}
