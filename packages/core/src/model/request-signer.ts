/**
 * Something that signs request objects for one identity without handing its private key to the
 * authorizer: an in-process key (the default, {@link createKeySigner}), a PKCS#11 token, a cloud
 * KMS. The authorizer builds the JWS signing input (`BASE64URL(header) || '.' || BASE64URL(payload)`,
 * RFC 7515 section 5.1) and calls `sign` with its bytes; the signer hashes them as its algorithm says.
 *
 * Contract:
 * - `sign` may be called concurrently (one call per request object, a multi-signed DC API request
 *   calls each identity's signer once); each call is independent, there is no session to keep.
 * - It answers the raw signature: for ES256 the 64-byte IEEE P1363 `r || s` (RFC 7518 section 3.4),
 *   not DER. Anything else is refused (the request fails, nothing is stored).
 * - A failure (token gone, KMS unreachable) is a rejection; the authorizer bounds each call by the
 *   identity's `timeoutMs` and answers 503 `signing.unavailable` with Retry-After, never a hang.
 * - Errors must not carry secrets (PINs, credentials): their messages may reach the logs.
 */
export interface RequestSigner {
  /** JOSE algorithm of the signatures; ES256 (ECDSA P-256 with SHA-256) is the one HAIP allows. */
  readonly alg: 'ES256';
  /**
   * The certificate chain of the signing key as PEM or standard base64 DER strings, leaf first,
   * without the trust anchor (HAIP). It becomes the request object's `x5c` and, for `x509_hash`,
   * the client_id. Read once, at construction.
   */
  readonly certificateChain: readonly string[];
  /** Sign the JWS signing input; resolves to the raw signature (64 bytes `r || s` for ES256). */
  sign(data: Uint8Array): Promise<Uint8Array>;
}
