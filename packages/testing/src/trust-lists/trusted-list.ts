import { createHash } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import type { ListSigner } from './list-signer.js';

/** One service of a generated TS 119 612 list. `history` entries are older statuses, newest first as lists write them. */
export interface ServiceSpec {
  type: string;
  status: string;
  since: Date;
  /** Standard base64 DER certificates. */
  certificates: string[];
  provider?: string;
  history?: { status: string; since: Date }[];
}

export interface PointerSpec {
  location: string;
  territory: string;
  listType?: string;
  mimeType?: string;
  signers: string[];
}

export interface ListSpec {
  type?: string;
  territory?: string;
  sequence?: number;
  issued?: Date;
  /** null: a closed list (no NextUpdate dateTime). */
  nextUpdate?: Date | null;
  services?: ServiceSpec[];
  pointers?: PointerSpec[];
}

/** TS 119 612 service statuses and list types used by the generated lists. */
export const GRANTED = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted';
export const WITHDRAWN = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn';
export const GENERIC = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric';
export const LOTL = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const identity = (certs: string[]) => certs.map((c) => `<DigitalId><X509Certificate>${c}</X509Certificate></DigitalId>`).join('');

/** The unsigned XML of a TS 119 612 list (the v2 namespace and element order the EU lists use). */
export function trustedListXml(spec: ListSpec): string {
  const issued = spec.issued ?? new Date(Date.now() - 3_600_000);
  const next = spec.nextUpdate === undefined ? new Date(Date.now() + 30 * 86_400_000) : spec.nextUpdate;
  const pointers = (spec.pointers ?? [])
    .map(
      (p) =>
        `<OtherTSLPointer><ServiceDigitalIdentities>${p.signers.map((s) => `<ServiceDigitalIdentity>${identity([s])}</ServiceDigitalIdentity>`).join('')}</ServiceDigitalIdentities>` +
        `<TSLLocation>${escape(p.location)}</TSLLocation><AdditionalInformation><OtherInformation><TSLType>${p.listType ?? GENERIC}</TSLType></OtherInformation>` +
        `<OtherInformation><SchemeTerritory>${p.territory}</SchemeTerritory></OtherInformation>` +
        `<OtherInformation><ns3:MimeType>${p.mimeType ?? 'application/vnd.etsi.tsl+xml'}</ns3:MimeType></OtherInformation></AdditionalInformation></OtherTSLPointer>`,
    )
    .join('');
  const providers = (spec.services ?? [])
    .map((s, i) => {
      const history = (s.history ?? [])
        .map((h) => `<ServiceHistoryInstance><ServiceTypeIdentifier>${s.type}</ServiceTypeIdentifier><ServiceName><Name xml:lang="en">service ${i}</Name></ServiceName><ServiceDigitalIdentity>${identity(s.certificates)}</ServiceDigitalIdentity><ServiceStatus>${h.status}</ServiceStatus><StatusStartingTime>${h.since.toISOString().replace(/\.\d+Z$/, 'Z')}</StatusStartingTime></ServiceHistoryInstance>`)
        .join('');
      return (
        `<TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="en">${escape(s.provider ?? `Provider ${i}`)}</Name></TSPName></TSPInformation><TSPServices><TSPService><ServiceInformation>` +
        `<ServiceTypeIdentifier>${s.type}</ServiceTypeIdentifier><ServiceName><Name xml:lang="en">service ${i}</Name></ServiceName>` +
        `<ServiceDigitalIdentity>${identity(s.certificates)}</ServiceDigitalIdentity><ServiceStatus>${s.status}</ServiceStatus>` +
        `<StatusStartingTime>${s.since.toISOString().replace(/\.\d+Z$/, 'Z')}</StatusStartingTime></ServiceInformation>` +
        (history ? `<ServiceHistory>${history}</ServiceHistory>` : '') +
        `</TSPService></TSPServices></TrustServiceProvider>`
      );
    })
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#" xmlns:ns3="http://uri.etsi.org/02231/v2/additionaltypes#" Id="tsl" TSLTag="http://uri.etsi.org/19612/TSLTag">` +
    `<SchemeInformation><TSLVersionIdentifier>6</TSLVersionIdentifier><TSLSequenceNumber>${spec.sequence ?? 1}</TSLSequenceNumber><TSLType>${spec.type ?? GENERIC}</TSLType>` +
    `<SchemeOperatorName><Name xml:lang="en">Test scheme operator</Name></SchemeOperatorName><SchemeTerritory>${spec.territory ?? 'UT'}</SchemeTerritory>` +
    (pointers ? `<PointersToOtherTSL>${pointers}</PointersToOtherTSL>` : '') +
    `<ListIssueDateTime>${issued.toISOString().replace(/\.\d+Z$/, 'Z')}</ListIssueDateTime><NextUpdate>${next ? `<dateTime>${next.toISOString().replace(/\.\d+Z$/, 'Z')}</dateTime>` : ''}</NextUpdate></SchemeInformation>` +
    (providers ? `<TrustServiceProviderList>${providers}</TrustServiceProviderList>` : '') +
    `</TrustServiceStatusList>`
  );
}

const XADES = 'http://uri.etsi.org/01903/v1.3.2#';

/** XAdES baseline B signed properties naming `certificateDer` (SigningCertificateV2, SHA-256). */
function qualifyingProperties(certificateDer: Uint8Array): string {
  const digest = createHash('sha256').update(certificateDer).digest('base64');
  return (
    `<xades:QualifyingProperties xmlns:xades="${XADES}" Target="#list-signature"><xades:SignedProperties Id="xades-signed-properties">` +
    `<xades:SignedSignatureProperties><xades:SigningTime>${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}</xades:SigningTime><xades:SigningCertificateV2><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue xmlns:ds="http://www.w3.org/2000/09/xmldsig#">${digest}</ds:DigestValue>` +
    `</xades:CertDigest></xades:Cert></xades:SigningCertificateV2></xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties>`
  );
}

/**
 * Signs a list as the EU lists are signed: enveloped, exclusive C14N, RSA-SHA256, KeyInfo with the
 * signer certificate. Signed by xml-crypto, not by the code under test. `xades` adds XAdES
 * signed properties naming a signing certificate (the signer's own unless another is given).
 */
export function signTrustedList(xml: string, signer: ListSigner, { keyInfo = true, xades }: { keyInfo?: boolean; xades?: { signingCertificate?: Uint8Array } } = {}): string {
  const sig = new SignedXml({
    privateKey: signer.privatePem,
    publicCert: keyInfo ? signer.pem : undefined,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    ...(xades ? { objects: [{ content: qualifyingProperties(xades.signingCertificate ?? signer.der) }] } : {}),
  });
  if (xades) {
    sig.addReference({
      xpath: "//*[@Id='xades-signed-properties']",
      uri: '#xades-signed-properties',
      type: 'http://uri.etsi.org/01903#SignedProperties',
      transforms: ['http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
  }
  sig.addReference({
    xpath: '/*',
    uri: '',
    isEmptyUri: true,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}

export const buildSignedList = (spec: ListSpec, signer: ListSigner, options?: Parameters<typeof signTrustedList>[2]): Buffer => Buffer.from(signTrustedList(trustedListXml(spec), signer, options), 'utf8');
