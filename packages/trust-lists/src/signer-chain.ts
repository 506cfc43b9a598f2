import { X509Certificate } from 'node:crypto';
import { listedCertificate, type ListedCertificate } from './listed-certificate.js';
import { TrustListError } from './trust-list-error.js';

const MAX_CHAIN = 5;

/**
 * The configured signer a list's signing chain (x5chain, x5c; leaf first) leads to: each
 * certificate issued by the next, all valid at
 * `now`, up to a configured signer or to a certificate a configured signer issued.
 */
export function chainToSigner(chainDer: readonly Uint8Array[], signers: readonly ListedCertificate[], now: number, where: string): ListedCertificate {
  if (chainDer.length === 0 || chainDer.length > MAX_CHAIN) throw new TrustListError('malformed', `${where}: a signing chain of ${chainDer.length} certificates`);
  if (signers.length === 0) throw new TrustListError('unknown_signer', `${where}: no list-signer certificate is configured`);
  let chain: X509Certificate[];
  try {
    chain = chainDer.map((der) => new X509Certificate(Buffer.from(der)));
  } catch {
    throw new TrustListError('malformed', `${where}: a certificate cannot be parsed`);
  }
  for (const [i, cert] of chain.entries()) {
    if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo)) throw new TrustListError('signature_invalid', `${where}: certificate ${i} is not valid at the current time`);
    const issuer = chain[i + 1];
    if (issuer && !(issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey))) throw new TrustListError('signature_invalid', `${where}: certificate ${i} is not issued by certificate ${i + 1}`);
  }
  // A configured certificate inside the chain ends it there (the links below it were checked).
  for (const der of chainDer) {
    const sha256 = listedCertificate(der, where).sha256;
    const configured = signers.find((s) => s.sha256 === sha256);
    if (configured) return configured;
  }
  const top = chain[chain.length - 1]!;
  for (const signer of signers) {
    const anchor = new X509Certificate(Buffer.from(signer.der));
    if (anchor.ca && top.checkIssued(anchor) && top.verify(anchor.publicKey)) return signer;
  }
  throw new TrustListError('unknown_signer', `${where}: the signing chain does not lead to a configured list signer`);
}
