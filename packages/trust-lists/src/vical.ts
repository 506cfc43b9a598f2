import { verify as cryptoVerify, X509Certificate } from 'node:crypto';
import { CborBudget, decodeWalletCbor } from '@vp-authorizer/core/formats';
import { Encoder, Tag } from 'cbor-x';
import { listedCertificate, type ListedCertificate } from './listed-certificate.js';
import { chainToSigner } from './signer-chain.js';
import { TrustListError } from './trust-list-error.js';
import type { ListedService, TrustedListContent } from './trusted-list-content.js';

// Sig_structure bytes: byte strings as plain bstr (no tag 64), RFC 9052 section 4.4.
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

/** COSE algorithms a VICAL may be signed with (ISO 18013-5 Table 22 / RFC 9053), with the curve each requires. */
const COSE_ALGS: Record<number, { hash: string; curve: string }> = {
  [-7]: { hash: 'sha256', curve: 'prime256v1' },
  [-9]: { hash: 'sha256', curve: 'prime256v1' },
  [-35]: { hash: 'sha384', curve: 'secp384r1' },
  [-36]: { hash: 'sha512', curve: 'secp521r1' },
};
const X5CHAIN = 33;
/** The service type a VICAL entry yields: one per docType it lists. */
export const vicalServiceType = (docType: string): string => `mdoc:${docType}`;

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;

/**
 * Reads a VICAL (ISO 18013-5 Annex C): a COSE_Sign1 (tag 18 optional) over the CBOR VICAL,
 * verified with the key of `x5chain[0]`, whose chain must lead to a configured VICAL signer (the
 * signer itself, or a CA that issued the top of the chain). Entries become one service per
 * docType, each certificate an IACA for it. Decoding goes through core's hardened CBOR decoder
 * with one budget for the whole document.
 */
export function readVical(bytes: Uint8Array, signers: readonly ListedCertificate[], now: number, where: string, budgetUnits = 2_000_000): TrustedListContent {
  const budget = new CborBudget(budgetUnits);
  const decode = (b: Uint8Array, what: string): unknown => {
    try {
      return decodeWalletCbor(b, budget);
    } catch (error) {
      throw new TrustListError('malformed', `${where}: the ${what} is not acceptable CBOR`, { cause: error });
    }
  };
  const outer = decode(bytes, 'VICAL');
  const array = outer instanceof Tag ? (outer.tag === 18 ? outer.value : undefined) : outer;
  if (!Array.isArray(array) || array.length !== 4) throw new TrustListError('malformed', `${where}: not a COSE_Sign1 structure`);
  const [protectedBytes, unprotected, payload, signature] = array as unknown[];
  if (!isBytes(protectedBytes) || !(unprotected instanceof Map) || !isBytes(payload) || !isBytes(signature)) throw new TrustListError('malformed', `${where}: not a COSE_Sign1 structure with an attached payload`);
  const protectedHeader = protectedBytes.length > 0 ? decode(protectedBytes, 'protected header') : new Map();
  if (!(protectedHeader instanceof Map)) throw new TrustListError('malformed', `${where}: the protected header is not a map`);
  const algId = protectedHeader.get(1);
  const alg = typeof algId === 'number' ? COSE_ALGS[algId] : undefined;
  if (!alg) throw new TrustListError('signature_invalid', `${where}: COSE algorithm ${String(algId)} is not accepted`);
  const chainValue: unknown = protectedHeader.get(X5CHAIN) ?? unprotected.get(X5CHAIN);
  const chainDer = isBytes(chainValue) ? [chainValue] : Array.isArray(chainValue) && chainValue.every(isBytes) ? (chainValue as Uint8Array[]) : undefined;
  if (!chainDer || chainDer.length === 0) throw new TrustListError('malformed', `${where}: no x5chain`);

  const signer = chainToSigner(chainDer, signers, now, `${where} x5chain`);
  const leaf = new X509Certificate(Buffer.from(chainDer[0]!));
  if (leaf.publicKey.asymmetricKeyDetails?.namedCurve !== alg.curve) throw new TrustListError('signature_invalid', `${where}: the signing key does not match COSE algorithm ${algId}`);
  const toBeSigned = encoder.encode(['Signature1', protectedBytes, new Uint8Array(0), payload]);
  let valid = false;
  try {
    valid = cryptoVerify(alg.hash, toBeSigned, { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    valid = false;
  }
  if (!valid) throw new TrustListError('signature_invalid', `${where}: the COSE signature does not verify (the VICAL was changed after signing)`);

  const vical = decode(payload, 'VICAL payload');
  if (!(vical instanceof Map)) throw new TrustListError('malformed', `${where}: the payload is not a VICAL map`);
  const provider = typeof vical.get('vicalProvider') === 'string' ? (vical.get('vicalProvider') as string) : '';
  const issuedAt = dateOf(vical.get('date'), `${where} date`);
  const nextUpdate = vical.get('nextUpdate') === undefined ? undefined : dateOf(vical.get('nextUpdate'), `${where} nextUpdate`);
  const issueId = vical.get('vicalIssueID');
  const infos = vical.get('certificateInfos');
  if (!Array.isArray(infos)) throw new TrustListError('malformed', `${where}: certificateInfos is not an array`);
  const services: ListedService[] = infos.flatMap((info: unknown, i) => {
    if (!(info instanceof Map) || !isBytes(info.get('certificate'))) throw new TrustListError('malformed', `${where} entry ${i}: no certificate`);
    const docTypes = info.get('docType');
    if (!Array.isArray(docTypes) || !docTypes.every((d) => typeof d === 'string')) throw new TrustListError('malformed', `${where} entry ${i}: docType is not an array of text`);
    const certificate = listedCertificate(info.get('certificate') as Uint8Array, `${where} entry ${i}`);
    const authority = typeof info.get('issuingAuthority') === 'string' ? (info.get('issuingAuthority') as string) : certificate.subject;
    // A VICAL lists what is trusted now: each entry is active from its certificate's notBefore.
    return (docTypes as string[]).map((docType) => ({
      serviceType: vicalServiceType(docType),
      provider: authority,
      name: `IACA for ${docType}`,
      certificates: [certificate],
      statuses: [{ status: VICAL_LISTED, from: certificate.notBefore }],
    }));
  });
  return {
    kind: 'vical',
    listType: `VICAL ${provider}`.trim(),
    ...(typeof issueId === 'number' ? { sequence: issueId } : {}),
    issuedAt,
    ...(nextUpdate !== undefined ? { nextUpdate } : {}),
    services,
    pointers: [],
    signer,
  };
}

/** The status every VICAL entry has: being listed is being trusted. */
export const VICAL_LISTED = 'urn:vp-authorizer:vical:listed';

function dateOf(value: unknown, where: string): number {
  const at = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw new TrustListError('malformed', `${where} is not a date`);
  return at;
}
