import { issueSigningChain } from './issue-signing-chain.js';

/**
 * An instance's `signing` option as @vp-authorizer/core takes it (its `SigningInput`), spelt out
 * here so that this package does not depend on core.
 */
export interface DevSigningInput {
  /** The leaf's P-256 private key as a JWK. */
  privateKey: JsonWebKey;
  /** The leaf alone, PEM: the chain a request object carries excludes the root. */
  certificateChain: string[];
  /** The root CA, PEM: served at /instances/oid4vp-trust-anchor. */
  trustAnchor: string;
}

/** What {@link generateDevSigningKey} returns. */
export interface DevSigningKey {
  signing: DevSigningInput;
  rootCertificatePem: string;
  leafCertificatePem: string;
}

/**
 * A throwaway two-level chain for development and tests: a self-signed root CA and a leaf signed
 * by it. The leaf is not self-signed and the chain handed out excludes the root, so it meets the
 * HAIP certificate rules. `readerAuth: true` adds the mdoc reader extended key usage
 * (1.0.18013.5.1.6), so the same leaf can sign Annex C `readerAuth`. Never use it in production: the keys live only in memory (the `keys`
 * command writes a chain to keep).
 */
export async function generateDevSigningKey(options: { commonName?: string; dnsName?: string; readerAuth?: boolean } = {}): Promise<DevSigningKey> {
  const dnsName = options.dnsName ?? 'localhost';
  const chain = await issueSigningChain({
    dnsName,
    ...(options.readerAuth ? { readerAuth: true } : {}),
    commonName: options.commonName ?? `vp-authorizer dev verifier (${dnsName})`,
    rootCommonName: 'vp-authorizer dev root CA',
  });
  const rootCertificatePem = chain.root.certificatePem;
  const leafCertificatePem = chain.leaf.certificatePem;
  return {
    signing: { privateKey: chain.leaf.privateKeyJwk, certificateChain: [leafCertificatePem], trustAnchor: rootCertificatePem },
    rootCertificatePem,
    leafCertificatePem,
  };
}
