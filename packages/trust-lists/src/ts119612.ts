import type { Element } from '@xmldom/xmldom';
import { boundedXmlText, childElement, childElements, parseBoundedXml, path, textOf, type XmlBounds } from './bounded-xml.js';
import { listedCertificate, type ListedCertificate } from './listed-certificate.js';
import { TrustListError } from './trust-list-error.js';
import type { ListedService, ListPointer, StatusPeriod, TrustedListContent } from './trusted-list-content.js';
import { verifyEnvelopedXmlSignature } from './xml-signature.js';

const TSL = 'http://uri.etsi.org/02231/v2#';
const TSL_ADDITIONAL = 'http://uri.etsi.org/02231/v2/additionaltypes#';

/** Most services or pointers one list may declare (today's largest national lists hold a few hundred). */
const MAX_ENTRIES = 20_000;

/**
 * Reads an ETSI TS 119 612 trusted list (a national list or the EU LoTL): bounded parse, enveloped
 * XMLDSig verified against `signers`, then the scheme information, the pointers to other lists
 * and every service with its history, read from the signed content only.
 */
export function readTs119612(bytes: Uint8Array, signers: readonly ListedCertificate[], bounds: XmlBounds, where: string): TrustedListContent {
  const text = boundedXmlText(bytes, bounds, where);
  const parsed = parseBoundedXml(text, bounds, where);
  const root = parsed.documentElement!;
  if (root.namespaceURI !== TSL || root.localName !== 'TrustServiceStatusList') throw new TrustListError('malformed', `${where}: the root element is not a TS 119 612 TrustServiceStatusList`);
  const { document, signer } = verifyEnvelopedXmlSignature(text, parsed, signers, bounds, where);
  const list = document.documentElement!;
  const scheme = childElement(list, TSL, 'SchemeInformation');
  if (!scheme) throw new TrustListError('malformed', `${where}: no SchemeInformation`);
  const listType = textOf(childElement(scheme, TSL, 'TSLType'));
  if (!listType) throw new TrustListError('malformed', `${where}: no TSLType`);
  const issuedAt = dateOf(textOf(childElement(scheme, TSL, 'ListIssueDateTime')), `${where} ListIssueDateTime`);
  const nextUpdateText = textOf(path(scheme, TSL, 'NextUpdate', 'dateTime'));
  const sequence = Number(textOf(childElement(scheme, TSL, 'TSLSequenceNumber')));
  const territory = textOf(childElement(scheme, TSL, 'SchemeTerritory'));
  const reader = new CertificateReader();
  const pointers = childElements(childElement(scheme, TSL, 'PointersToOtherTSL') ?? scheme, TSL, 'OtherTSLPointer');
  const providers = childElements(childElement(list, TSL, 'TrustServiceProviderList') ?? list, TSL, 'TrustServiceProvider');
  if (pointers.length > MAX_ENTRIES || providers.length > MAX_ENTRIES) throw new TrustListError('xml_refused', `${where}: more than ${MAX_ENTRIES} entries`);
  return {
    kind: 'etsi-tl',
    listType,
    ...(territory ? { territory } : {}),
    ...(Number.isSafeInteger(sequence) ? { sequence } : {}),
    issuedAt,
    // An absent NextUpdate dateTime means the scheme ceased: the list is never refreshed again.
    ...(nextUpdateText ? { nextUpdate: dateOf(nextUpdateText, `${where} NextUpdate`) } : {}),
    pointers: pointers.map((p, i) => pointerOf(p, reader, `${where} pointer ${i}`)),
    services: providers.flatMap((p, i) => servicesOf(p, reader, `${where} provider ${i}`)),
    signer,
  };
}

function dateOf(text: string | undefined, where: string): number {
  const at = text ? Date.parse(text) : Number.NaN;
  if (!text || !/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at)) throw new TrustListError('malformed', `${where} is not an xsd:dateTime`);
  return at;
}

/**
 * Reads each distinct certificate of one list once: the EU LoTL names 145 certificates, 39 of them
 * twice (a territory's XML and PDF pointers share their signers), and parsing dominates its reading.
 */
class CertificateReader {
  private readonly read = new Map<string, ListedCertificate>();
  of(identity: Element | undefined, where: string): ListedCertificate[] {
    if (!identity) return [];
    return childElements(identity, TSL, 'DigitalId')
      .flatMap((id) => childElements(id, TSL, 'X509Certificate'))
      .map((c, i) => {
        const text = textOf(c) ?? '';
        let certificate = this.read.get(text);
        if (!certificate) {
          certificate = listedCertificate(text, `${where} certificate ${i}`);
          this.read.set(text, certificate);
        }
        return certificate;
      });
  }
}

function pointerOf(pointer: Element, reader: CertificateReader, where: string): ListPointer {
  const location = textOf(childElement(pointer, TSL, 'TSLLocation'));
  if (!location) throw new TrustListError('malformed', `${where}: no TSLLocation`);
  const identities = childElements(childElement(pointer, TSL, 'ServiceDigitalIdentities') ?? pointer, TSL, 'ServiceDigitalIdentity');
  const signers = identities.flatMap((identity, i) => reader.of(identity, `${where} identity ${i}`));
  const info = childElements(childElement(pointer, TSL, 'AdditionalInformation') ?? pointer, TSL, 'OtherInformation');
  const pick = (namespace: string, name: string) => info.map((o) => textOf(childElement(o, namespace, name))).find((v) => v);
  const territory = pick(TSL, 'SchemeTerritory');
  const listType = pick(TSL, 'TSLType');
  const mimeType = pick(TSL_ADDITIONAL, 'MimeType');
  return { location, signers, ...(territory ? { territory } : {}), ...(listType ? { listType } : {}), ...(mimeType ? { mimeType } : {}) };
}

const nameOf = (parent: Element | undefined): string => textOf(parent ? childElements(parent, TSL, 'Name')[0] : undefined) ?? '';

function servicesOf(provider: Element, reader: CertificateReader, where: string): ListedService[] {
  const providerName = nameOf(path(provider, TSL, 'TSPInformation', 'TSPName'));
  const services = childElements(childElement(provider, TSL, 'TSPServices') ?? provider, TSL, 'TSPService');
  return services.map((service, i) => {
    const at = `${where} service ${i}`;
    const info = childElement(service, TSL, 'ServiceInformation');
    if (!info) throw new TrustListError('malformed', `${at}: no ServiceInformation`);
    const serviceType = textOf(childElement(info, TSL, 'ServiceTypeIdentifier'));
    if (!serviceType) throw new TrustListError('malformed', `${at}: no ServiceTypeIdentifier`);
    const current = periodOf(info, at);
    // History instances are listed newest first; a period ends where the next one starts.
    const history = childElements(childElement(service, TSL, 'ServiceHistory') ?? service, TSL, 'ServiceHistoryInstance').map((h, j) => periodOf(h, `${at} history ${j}`));
    const statuses = [...history, current].sort((a, b) => a.from - b.from);
    return {
      serviceType,
      provider: providerName,
      name: nameOf(childElement(info, TSL, 'ServiceName')),
      certificates: reader.of(childElement(info, TSL, 'ServiceDigitalIdentity'), at),
      statuses,
    };
  });
}

function periodOf(info: Element, where: string): StatusPeriod {
  const status = textOf(childElement(info, TSL, 'ServiceStatus'));
  if (!status) throw new TrustListError('malformed', `${where}: no ServiceStatus`);
  return { status, from: dateOf(textOf(childElement(info, TSL, 'StatusStartingTime')), `${where} StatusStartingTime`) };
}
