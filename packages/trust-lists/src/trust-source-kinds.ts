import { DEFAULT_XML_BOUNDS, type XmlBounds } from './bounded-xml.js';
import type { ListedCertificate } from './listed-certificate.js';
import { readLote } from './lote.js';
import { TrustListError } from './trust-list-error.js';
import { EU_LOTL_TYPE, type TrustedListContent } from './trusted-list-content.js';
import { readTs119612 } from './ts119612.js';
import { readVical } from './vical.js';

export interface ReadContext {
  signers: readonly ListedCertificate[];
  now: number;
  maxBytes: number;
  xmlBounds: XmlBounds;
  where: string;
}

export interface TrustSourceKind {
  /** What the kind is, for documentation and status reports. */
  title: string;
  format: string;
  signature: string;
  /** The Accept header sent when fetching it. */
  accept: string;
  /** Verifies and reads one document of this kind. */
  read(bytes: Uint8Array, context: ReadContext): Promise<TrustedListContent>;
}

/**
 * The one table of trust-source kinds. `lotl` is a TS 119 612 list whose pointers are followed
 * (each pointed list checked against the signer certificates the LoTL gives for it); `tl` is any
 * other TS 119 612 list loaded directly, checked against configured signers.
 */
export const TRUST_SOURCE_KINDS = {
  lotl: {
    title: 'List of Trusted Lists (EU LoTL)',
    format: 'ETSI TS 119 612 XML; its pointers to XML lists are followed',
    signature: 'enveloped XMLDSig (XAdES baseline B), configured signers',
    accept: 'application/vnd.etsi.tsl+xml, application/xml',
    read: async (bytes, c) => {
      const list = readTs119612(bytes, c.signers, c.xmlBounds, c.where);
      if (list.listType !== EU_LOTL_TYPE) throw new TrustListError('malformed', `${c.where}: TSLType ${list.listType} is not a list of lists`);
      return list;
    },
  },
  tl: {
    title: 'Trusted list',
    format: 'ETSI TS 119 612 XML',
    signature: 'enveloped XMLDSig (XAdES baseline B), configured signers or those the LoTL names',
    accept: 'application/vnd.etsi.tsl+xml, application/xml',
    read: async (bytes, c) => readTs119612(bytes, c.signers, c.xmlBounds, c.where),
  },
  lote: {
    title: 'List of Trusted Entities (LoTE)',
    format: 'ETSI TS 119 602 JSON',
    signature: 'compact JWS (JAdES baseline B) with x5c, configured signers',
    accept: 'application/jose, application/json',
    read: (bytes, c) => readLote(bytes, c.signers, c.now, c.maxBytes, c.where),
  },
  vical: {
    title: 'Verified Issuer Certificate Authority List (VICAL)',
    format: 'ISO 18013-5 Annex C CBOR',
    signature: 'COSE_Sign1 with x5chain, configured signers',
    accept: 'application/cbor, application/octet-stream',
    read: async (bytes, c) => readVical(bytes, c.signers, c.now, c.where),
  },
} as const satisfies Record<string, TrustSourceKind>;

export type TrustSourceKindName = keyof typeof TRUST_SOURCE_KINDS;

export const isTrustSourceKind = (name: string): name is TrustSourceKindName => Object.hasOwn(TRUST_SOURCE_KINDS, name);

/**
 * The kind of a document whose source did not name one: a compact JWS is a LoTE, CBOR is a VICAL,
 * XML is a TS 119 612 list (a LoTL when its TSLType says so, which `lotl` then checks).
 */
export function detectKind(bytes: Uint8Array): TrustSourceKindName {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1').trimStart();
  if (head.startsWith('<')) {
    // The list's own TSLType comes first in SchemeInformation (pointers, later, name other lists' types).
    const type = /<(?:[\w-]+:)?TSLType>([^<]*)</.exec(Buffer.from(bytes.subarray(0, 16_384)).toString('latin1'))?.[1]?.trim();
    return type === EU_LOTL_TYPE ? 'lotl' : 'tl';
  }
  if (head.startsWith('eyJ')) return 'lote';
  const first = bytes[0];
  // A CBOR array of four (COSE_Sign1) or tag 18 in front of one.
  if (first === 0x84 || first === 0xd2) return 'vical';
  throw new TrustListError('malformed', 'the document is neither XML, a compact JWS nor CBOR');
}

export { DEFAULT_XML_BOUNDS };
