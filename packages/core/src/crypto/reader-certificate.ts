import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, ExtendedKeyUsage, KeyUsage, id_ce_extKeyUsage, id_ce_keyUsage } from '@peculiar/asn1-x509';

/** ISO/IEC 18013-5 (Annex B, reader authentication certificate): the extended key usage of an mdoc reader. */
export const MDOC_READER_AUTH_EKU = '1.0.18013.5.1.6';

/**
 * What keeps a certificate from serving as an mdoc reader authentication certificate (ISO/IEC
 * 18013-5 Annex B): the extended key usage 1.0.18013.5.1.6 and keyUsage digitalSignature. Empty
 * when it qualifies. The chain and validity are checked with the signing identity itself.
 */
export function readerCertificateProblems(der: Uint8Array): string[] {
  let certificate: Certificate;
  try {
    certificate = AsnConvert.parse(der, Certificate);
  } catch {
    return ['is not a readable X.509 certificate'];
  }
  const extensions = certificate.tbsCertificate.extensions ?? [];
  const extension = (id: string) => extensions.find((e) => e.extnID === id)?.extnValue.buffer;
  const problems: string[] = [];
  const eku = extension(id_ce_extKeyUsage);
  const purposes = eku ? [...AsnConvert.parse(eku, ExtendedKeyUsage)] : [];
  if (!purposes.includes(MDOC_READER_AUTH_EKU)) {
    problems.push(`lacks the mdoc reader authentication extended key usage ${MDOC_READER_AUTH_EKU} (ISO/IEC 18013-5)${purposes.length > 0 ? `; it lists ${purposes.join(', ')}` : ''}`);
  }
  const keyUsage = extension(id_ce_keyUsage);
  if (!keyUsage || !AsnConvert.parse(keyUsage, KeyUsage).toJSON().includes('digitalSignature')) problems.push('lacks keyUsage digitalSignature');
  return problems;
}
