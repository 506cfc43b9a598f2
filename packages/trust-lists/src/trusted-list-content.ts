import type { ListedCertificate } from './listed-certificate.js';

/** One status a service had, from `from` (epoch ms) until the next entry's `from`. */
export interface StatusPeriod {
  status: string;
  /** Epoch ms; the StatusStartingTime the list gives. */
  from: number;
}

/** A listed service: what its certificates may vouch for, and its status over time. */
export interface ListedService {
  /** The service type URI (TS 119 612 ServiceTypeIdentifier, TS 119 602 service type), or `mdoc:<docType>` for VICAL entries. */
  serviceType: string;
  /** Readable name of the provider and the service, for reports. */
  provider: string;
  name: string;
  certificates: ListedCertificate[];
  /** DIDs the service's digital identity names (TS 119 602 `OtherIds`), for credentials issued under a DID. */
  dids?: string[];
  /** Oldest first; the last one is the current status. */
  statuses: StatusPeriod[];
}

/** A pointer from a list of lists (the EU LoTL) to another list, with the certificates allowed to sign it. */
export interface ListPointer {
  location: string;
  territory?: string;
  /** The pointed list's TSLType URI. */
  listType?: string;
  /** The pointed list's MIME type (`application/vnd.etsi.tsl+xml` for XML lists; PDF copies are skipped). */
  mimeType?: string;
  signers: ListedCertificate[];
}

/** What a verified list says, whatever its format. */
export interface TrustedListContent {
  kind: 'etsi-tl' | 'lote' | 'vical';
  /** TSLType / LoTEType URI, or the VICAL provider. */
  listType: string;
  territory?: string;
  sequence?: number;
  /** Epoch ms. */
  issuedAt: number;
  /** Epoch ms; undefined when the list says it is closed (no further update) or, for a VICAL, gives none. */
  nextUpdate?: number;
  services: ListedService[];
  pointers: ListPointer[];
  signer: ListedCertificate;
}

export const EU_LOTL_TYPE = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists';
