import { createHash, createPublicKey, timingSafeEqual, verify as verifySignature, type KeyObject } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { SignedXml, type HashAlgorithm, type SignatureAlgorithm } from 'xml-crypto';
import { childElement, childElements, parseBoundedXml, type XmlBounds } from './bounded-xml.js';
import { listedCertificate, type ListedCertificate } from './listed-certificate.js';
import { TrustListError } from './trust-list-error.js';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** A signature algorithm checked with node:crypto; xml-crypto brings RSA PKCS#1 v1.5 SHA-256/512 and RSA-PSS SHA-256 only. */
function nodeAlgorithm(uri: string, hash: string, options: { dsaEncoding?: 'ieee-p1363' } = {}): new () => SignatureAlgorithm {
  return class {
    getAlgorithmName = () => uri;
    getSignature = (): string => {
      throw new Error('verification only');
    };
    verifySignature = (material: string, key: KeyObject | string | Buffer, signatureValue: string): boolean => {
      const publicKey = createPublicKey(key);
      return verifySignature(hash, Buffer.from(material, 'utf8'), { key: publicKey, ...options }, Buffer.from(signatureValue, 'base64'));
    };
  } as unknown as new () => SignatureAlgorithm;
}

/**
 * Signature algorithms a list may be signed with. SHA-1 is refused (TS 119 312 retired it for
 * signatures); ECDSA values are r‖s as XMLDSig 1.1 defines.
 */
const SIGNATURE_ALGORITHMS: Record<string, new () => SignatureAlgorithm> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'sha256'),
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#rsa-sha384', 'sha384'),
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#rsa-sha512', 'sha512'),
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256', 'sha256', { dsaEncoding: 'ieee-p1363' }),
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384', 'sha384', { dsaEncoding: 'ieee-p1363' }),
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512': nodeAlgorithm('http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512', 'sha512', { dsaEncoding: 'ieee-p1363' }),
};
const RSA_PSS_SHA256 = 'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1';

const DIGEST_ALGORITHMS = new Set(['http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmldsig-more#sha384', 'http://www.w3.org/2001/04/xmlenc#sha512']);

class Sha384 implements HashAlgorithm {
  getAlgorithmName = () => 'http://www.w3.org/2001/04/xmldsig-more#sha384';
  getHash = (xml: string): string => createHash('sha384').update(xml, 'utf8').digest('base64');
}

export interface VerifiedXml {
  /** The signed content: the canonical form the signature covers, parsed again (never nodes of the input). */
  document: Document;
  /** The configured signer whose key verified the signature. */
  signer: ListedCertificate;
}

/**
 * Verifies the one enveloped XMLDSig signature of a trusted list (TS 119 612 clause 5.7: the
 * signature is a child of the root and covers the whole list) against configured signer
 * certificates, with xml-crypto doing the references, transforms and canonicalization. Returns the
 * signed content as xml-crypto canonicalized it, so no unsigned node of the input is ever read.
 *
 * XAdES: when the signature has signed properties (XAdES baseline B), their SigningCertificate(V2)
 * must name the signer by digest. SigningTime, timestamps and revocation data are not evaluated.
 */
export function verifyEnvelopedXmlSignature(text: string, doc: Document, signers: readonly ListedCertificate[], bounds: XmlBounds, where: string): VerifiedXml {
  const root = doc.documentElement!;
  const signatures = doc.getElementsByTagNameNS(DS, 'Signature');
  if (signatures.length === 0) throw new TrustListError('signature_invalid', `${where}: the list is not signed`);
  if (signatures.length > 1) throw new TrustListError('signature_invalid', `${where}: the list has more than one signature`);
  const signature = signatures[0]!;
  if (signature.parentNode !== root) throw new TrustListError('signature_invalid', `${where}: the signature is not a child of the root element`);
  const signedInfo = childElement(signature, DS, 'SignedInfo');
  if (!signedInfo) throw new TrustListError('signature_invalid', `${where}: the signature has no SignedInfo`);

  const method = childElement(signedInfo, DS, 'SignatureMethod')?.getAttribute('Algorithm') ?? '';
  if (!(method in SIGNATURE_ALGORITHMS) && method !== RSA_PSS_SHA256) throw new TrustListError('signature_invalid', `${where}: signature algorithm ${method || '(none)'} is not accepted`);
  const references = childElements(signedInfo, DS, 'Reference');
  const rootId = root.getAttribute('Id');
  const whole = references.find((r) => {
    const uri = r.getAttribute('URI');
    return uri === '' || (rootId !== null && rootId !== '' && uri === `#${rootId}`);
  });
  if (!whole) throw new TrustListError('signature_invalid', `${where}: no signature reference covers the whole list`);
  const transforms = childElements(childElement(whole, DS, 'Transforms') ?? whole, DS, 'Transform').map((t) => t.getAttribute('Algorithm'));
  if (!transforms.includes(ENVELOPED)) throw new TrustListError('signature_invalid', `${where}: the whole-list reference lacks the enveloped-signature transform`);
  for (const reference of references) {
    const digest = childElement(reference, DS, 'DigestMethod')?.getAttribute('Algorithm') ?? '';
    if (!DIGEST_ALGORITHMS.has(digest)) throw new TrustListError('signature_invalid', `${where}: digest algorithm ${digest || '(none)'} is not accepted`);
  }

  const candidates = signerCandidates(signature, signers, where);
  let lastError: unknown;
  for (const candidate of candidates) {
    const sig = new SignedXml({ publicCert: candidate.pem, getCertFromKeyInfo: () => null });
    // TS 119 612 and XAdES identify elements by `Id` only; each further name is one more XPath
    // search of the whole document per reference.
    sig.idAttributes = ['Id'];
    sig.SignatureAlgorithms = { ...SIGNATURE_ALGORITHMS, [RSA_PSS_SHA256]: new SignedXml().SignatureAlgorithms[RSA_PSS_SHA256 as keyof SignedXml['SignatureAlgorithms']] } as SignedXml['SignatureAlgorithms'];
    sig.HashAlgorithms = {
      'http://www.w3.org/2001/04/xmlenc#sha256': new SignedXml().HashAlgorithms['http://www.w3.org/2001/04/xmlenc#sha256'],
      'http://www.w3.org/2001/04/xmlenc#sha512': new SignedXml().HashAlgorithms['http://www.w3.org/2001/04/xmlenc#sha512'],
      'http://www.w3.org/2001/04/xmldsig-more#sha384': Sha384,
    } as SignedXml['HashAlgorithms'];
    let valid: boolean;
    try {
      sig.loadSignature(signature as unknown as Node);
      valid = sig.checkSignature(text);
    } catch (error) {
      const message = (error as Error).message ?? '';
      // The references matched but this key did not sign SignedInfo: try the next candidate.
      if (message.startsWith('invalid signature: the signature value')) {
        lastError = error;
        continue;
      }
      throw new TrustListError('signature_invalid', `${where}: the signature cannot be verified`, { cause: error });
    }
    // false: a reference digest does not match, whatever the key (the content was changed).
    if (!valid) throw new TrustListError('signature_invalid', `${where}: a signed reference does not match its digest (the list was changed after signing)`);
    const signedWhole = sig.getReferences().find((r) => r.uri === whole.getAttribute('URI'))?.signedReference;
    // xml-crypto does not keep a reference's Type: the SignedInfo (covered by the signature) names it.
    const propertiesUri = references.find((r) => r.getAttribute('Type') === SIGNED_PROPERTIES)?.getAttribute('URI');
    if (propertiesUri) checkXadesSigningCertificate(sig, propertiesUri, candidate, bounds, where);
    if (signedWhole === undefined) throw new TrustListError('signature_invalid', `${where}: the whole-list reference was not verified`);
    // Canonical XML has no declaration, DOCTYPE or entity references; the same bounds still apply.
    return { document: parseBoundedXml(signedWhole, bounds, where), signer: candidate };
  }
  throw new TrustListError(candidates.length === 1 ? 'signature_invalid' : 'unknown_signer', `${where}: the signature does not verify under ${candidates.length === 1 ? 'the configured signer certificate it names' : 'any configured signer certificate'}`, { cause: lastError });
}

/**
 * The configured signers to try: the one equal to the KeyInfo certificate when the signature
 * names one (a certificate that is not configured fails as unknown_signer without any
 * cryptography), else every configured signer.
 */
function signerCandidates(signature: Element, signers: readonly ListedCertificate[], where: string): readonly ListedCertificate[] {
  if (signers.length === 0) throw new TrustListError('unknown_signer', `${where}: no signer certificate is configured for this list`);
  const keyInfo = childElement(signature, DS, 'KeyInfo');
  const certificates = keyInfo ? childElements(keyInfo, DS, 'X509Data').flatMap((data) => childElements(data, DS, 'X509Certificate')) : [];
  if (certificates.length === 0) return signers;
  const named = listedCertificate((certificates[0]!.textContent ?? '').trim(), `${where} KeyInfo`);
  const match = signers.find((s) => s.sha256 === named.sha256);
  if (!match) throw new TrustListError('unknown_signer', `${where}: the list is signed by ${named.subject}, which is not a configured signer`);
  return [match];
}

const XADES = 'http://uri.etsi.org/01903/v1.3.2#';
const SIGNED_PROPERTIES = 'http://uri.etsi.org/01903#SignedProperties';
const NODE_DIGESTS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

/**
 * XAdES (EN 319 132-1) binds the signer certificate into what is signed: SigningCertificateV2
 * (or the older SigningCertificate) in the signed properties lists its digest. Read from the
 * verified signed-properties reference, so a key that matches but a certificate that does not
 * (a re-certified key under another name) is refused.
 */
function checkXadesSigningCertificate(sig: SignedXml, uri: string, signer: ListedCertificate, bounds: XmlBounds, where: string): void {
  const properties = sig.getReferences().find((r) => r.uri === uri)?.signedReference;
  if (properties === undefined) throw new TrustListError('signature_invalid', `${where}: the XAdES signed properties were not verified`);
  const doc = parseBoundedXml(properties, bounds, `${where} signed properties`);
  const certs = [...Array.from(doc.getElementsByTagNameNS(XADES, 'SigningCertificateV2')), ...Array.from(doc.getElementsByTagNameNS(XADES, 'SigningCertificate'))].flatMap((e) => childElements(e, XADES, 'Cert'));
  if (certs.length === 0) throw new TrustListError('signature_invalid', `${where}: the XAdES signed properties name no signing certificate`);
  const named = certs.some((cert) => {
    const digest = childElement(cert, XADES, 'CertDigest');
    const algorithm = NODE_DIGESTS[(digest && childElement(digest, DS, 'DigestMethod')?.getAttribute('Algorithm')) ?? ''];
    const value = digest ? (childElement(digest, DS, 'DigestValue')?.textContent ?? '').trim() : '';
    if (!algorithm || value === '') return false;
    const expected = createHash(algorithm).update(signer.der).digest();
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!named) throw new TrustListError('signature_invalid', `${where}: the XAdES SigningCertificate does not name the certificate that verified the signature`);
}
