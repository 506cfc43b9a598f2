/** The key identifiers (RFC 5280 4.2.1.1 and 4.2.1.2) of one certificate, lower-case hex. */
export interface KeyIdentifiers {
  /** subjectKeyIdentifier: names the certificate's own key. */
  subjectKeyId?: string;
  /** authorityKeyIdentifier's keyIdentifier: names the key of the issuer that signed it. */
  authorityKeyId?: string;
}

/** One DER element: its tag and where its content lies in the bytes. */
interface DerElement {
  tag: number;
  start: number;
  end: number;
}

// DER content bytes of the extension OIDs: 2.5.29.14 and 2.5.29.35.
const SUBJECT_KEY_IDENTIFIER = '551d0e';
const AUTHORITY_KEY_IDENTIFIER = '551d23';

/**
 * Reads only the two key identifiers from a certificate's DER, walking tag-length headers down to
 * the extensions. Node's X509Certificate does not expose them, and a full ASN.1 parse
 * (@peculiar/asn1-x509) costs milliseconds per certificate, which would dominate loading a list of
 * lists (bench/README.md). Used only to find candidate anchors: anything unexpected yields no
 * identifier (the lookup falls back to names), and path validation still checks every signature.
 */
export function keyIdentifiers(der: Uint8Array): KeyIdentifiers {
  const certificate = elementAt(der, 0, der.length);
  const tbs = certificate && certificate.tag === 0x30 ? elementAt(der, certificate.start, certificate.end) : undefined;
  if (!tbs || tbs.tag !== 0x30) return {};
  // extensions [3] EXPLICIT SEQUENCE OF Extension, the last field of TBSCertificate.
  const extensions = childrenOf(der, tbs).find((e) => e.tag === 0xa3);
  const list = extensions ? elementAt(der, extensions.start, extensions.end) : undefined;
  if (!list || list.tag !== 0x30) return {};
  const out: KeyIdentifiers = {};
  for (const extension of childrenOf(der, list)) {
    const [id, ...rest] = childrenOf(der, extension);
    // extnValue is the last field (critical, a BOOLEAN, may come between).
    const value = rest.at(-1);
    if (!id || id.tag !== 0x06 || !value || value.tag !== 0x04) continue;
    const oid = hex(der, id);
    const inner = elementAt(der, value.start, value.end);
    if (!inner) continue;
    // SubjectKeyIdentifier ::= KeyIdentifier (OCTET STRING)
    if (oid === SUBJECT_KEY_IDENTIFIER && inner.tag === 0x04 && inner.end > inner.start) out.subjectKeyId = hex(der, inner);
    // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING OPTIONAL, … }
    if (oid === AUTHORITY_KEY_IDENTIFIER && inner.tag === 0x30) {
      const keyId = childrenOf(der, inner).find((e) => e.tag === 0x80);
      if (keyId && keyId.end > keyId.start) out.authorityKeyId = hex(der, keyId);
    }
  }
  return out;
}

/** The element starting at `at`, if its header and content fit before `limit` (definite lengths up to 4 bytes; DER has no other). */
function elementAt(bytes: Uint8Array, at: number, limit: number): DerElement | undefined {
  if (at + 2 > limit) return undefined;
  const tag = bytes[at]!;
  // High tag numbers never occur on the path this walk takes.
  if ((tag & 0x1f) === 0x1f) return undefined;
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || start + octets > limit) return undefined;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + bytes[start++]!;
  }
  return start + length > limit ? undefined : { tag, start, end: start + length };
}

/** The elements inside a constructed element; stops at the first that does not fit. */
function childrenOf(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const out: DerElement[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const child = elementAt(bytes, at, parent.end);
    if (!child) break;
    out.push(child);
    at = child.end;
  }
  return out;
}

const hex = (bytes: Uint8Array, element: DerElement): string => Buffer.from(bytes.buffer, bytes.byteOffset + element.start, element.end - element.start).toString('hex');
