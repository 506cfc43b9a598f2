import { CborBudget, decodeWalletCbor } from '@vp-authorizer/core/formats';
import { Tag } from 'cbor-x';

const X5CHAIN = 33;

const toBytes = (value: unknown): Uint8Array | undefined => (value instanceof Uint8Array ? new Uint8Array(value) : undefined);

function chainFromHeader(header: unknown): Uint8Array[] | undefined {
  if (!(header instanceof Map)) return undefined;
  const value: unknown = header.get(X5CHAIN);
  if (value === undefined) return undefined;
  // RFC 9360: one certificate as a bstr, several as an array of bstr (leaf first).
  const single = toBytes(value);
  if (single) return [single];
  if (Array.isArray(value)) {
    const certs = value.map(toBytes);
    return certs.every((c): c is Uint8Array => c !== undefined) ? certs : undefined;
  }
  return undefined;
}

/**
 * The issuer certificate chain (COSE `x5chain`, label 33) of every document's `issuerAuth`, from
 * the base64url DeviceResponse. Protected header first, then unprotected. A document without a
 * readable chain gets `[]`; undecodable input yields `[]` for all (the format policy already
 * rejected truly malformed responses).
 */
export function mdocIssuerCertificateChains(rawBase64Url: string): Uint8Array[][] {
  // Wallet input: the hardened decoder, one budget for the response and its protected headers.
  const budget = new CborBudget();
  let root: unknown;
  try {
    root = decodeWalletCbor(Buffer.from(rawBase64Url, 'base64url'), budget);
  } catch {
    return [];
  }
  const documents = root instanceof Map ? root.get('documents') : undefined;
  if (!Array.isArray(documents)) return [];
  return documents.map((doc: unknown) => {
    const issuerSigned = doc instanceof Map ? doc.get('issuerSigned') : undefined;
    const issuerAuth: unknown = issuerSigned instanceof Map ? issuerSigned.get('issuerAuth') : undefined;
    const sign1 = issuerAuth instanceof Tag && issuerAuth.tag === 18 ? issuerAuth.value : issuerAuth;
    if (!Array.isArray(sign1) || sign1.length !== 4) return [];
    let protectedHeader: unknown;
    try {
      const bytes = toBytes(sign1[0]);
      protectedHeader = bytes && bytes.length > 0 ? decodeWalletCbor(bytes, budget) : undefined;
    } catch {
      protectedHeader = undefined;
    }
    return chainFromHeader(protectedHeader) ?? chainFromHeader(sign1[1]) ?? [];
  });
}
