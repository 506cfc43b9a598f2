import { ExtendedKeyUsageExtension } from '@peculiar/x509';
import type { ParsedCertificate } from '../../x509/certificate.js';
import { PolicyFailure } from '../policy-failure.js';

/** ISO/IEC 18013-5 Annex B: id-mdl-kp-mdlDS, the document signer key purpose. */
export const MDL_DS_EKU = '1.0.18013.5.1.2';

/**
 * A leaf with an extendedKeyUsage extension is limited to those purposes: it may sign an MSO only
 * when mdlDS is among them (a TLS or reader certificate under the same IACA must not).
 */
export function checkDocumentSignerEku(leaf: ParsedCertificate): void {
  const eku = leaf.cert.getExtension(ExtendedKeyUsageExtension);
  if (eku && !eku.usages.map(String).includes(MDL_DS_EKU)) {
    throw new PolicyFailure('trusted_issuer.chain_invalid', `The document signer certificate extendedKeyUsage does not include mdlDS (${MDL_DS_EKU})`);
  }
}
