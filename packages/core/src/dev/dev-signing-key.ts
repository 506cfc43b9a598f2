import type { KeySigningInput } from '../config/signing-input.js';
import { issueSigningChain } from './issue-signing-chain.js';

/**
 * A throwaway two-level chain for development and tests: a self-signed root CA and a leaf signed
 * by it. The leaf is not self-signed and the chain handed out excludes the root, so it meets the
 * HAIP certificate rules. Never use it in production: the keys live only in memory.
 */
export async function generateDevSigningKey(options: { commonName?: string; dnsName?: string } = {}): Promise<{
  signing: KeySigningInput;
  rootCertificatePem: string;
  leafCertificatePem: string;
}> {
  const dnsName = options.dnsName ?? 'localhost';
  const chain = await issueSigningChain({
    dnsName,
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
