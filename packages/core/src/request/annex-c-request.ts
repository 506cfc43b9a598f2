import { createECDH, randomBytes } from 'node:crypto';
import { Encoder, Tag } from 'cbor-x';
import type { AnnexCRecipientRecord, DcqlQuery } from '../model/authorization-record.js';
import { bytesToBase64Url } from '../crypto/base64url.js';
import { freshP256Numbers } from '../crypto/p256-key-numbers.js';
import { p256JwkToCoseKey } from '../crypto/p256-cose-key.js';
import { signReaderAuth, type ReaderAuthSigner } from '../crypto/reader-authentication.js';
import { sessionTranscriptBytes } from '../crypto/session-transcript.js';
import type { FieldError } from '../errors/authorizer-error.js';
import { MAX_MDOC_DOCUMENTS } from '../formats/mso-mdoc/parse-mdoc.js';

// Plain byte strings (no tag 64), maps in insertion order, no record extension: the layouts below
// are compared byte for byte with published Annex C vectors.
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const ecdh = createECDH('prime256v1');

/** ISO/IEC 18013-7 Annex C: the EncryptionInfo nonce is at least 16 bytes. */
export const ANNEX_C_NONCE_BYTES = 16;

/** The Annex C request handed to the browser, and what the authorization keeps to open the answer. */
export interface AnnexCRequest {
  /** base64url CBOR DeviceRequest (ISO/IEC 18013-5 8.3.2.1.2.1). */
  deviceRequest: string;
  /** base64url CBOR `["dcapi", {nonce, recipientPublicKey}]`. */
  encryptionInfo: string;
  /** base64url of the nonce bytes: the 201's `nonce`. */
  nonce: string;
  recipient: AnnexCRecipientRecord;
}

/**
 * readerAuth for the DocRequests: who signs, and the SessionTranscript the ReaderAuthentication
 * holds (for Annex C it names the page's origin, so the request is signed for one origin).
 */
export interface AnnexCReaderAuth {
  signer: ReaderAuthSigner;
  sessionTranscript: Uint8Array;
}

/**
 * Why a DCQL query cannot be asked as an Annex C DeviceRequest (empty when it can): only mso_mdoc
 * credential queries with `meta.doctype_value`, claims given as `[namespace, element]`, and no
 * `claim_sets` (a DeviceRequest asks for every element it names; it has no alternatives), at most
 * MAX_MDOC_DOCUMENTS of them.
 */
export function annexCQueryIssues(dcql: DcqlQuery, at: string): FieldError[] {
  // Each DocRequest costs a readerAuth signature (a KMS or HSM call), and a DeviceResponse
  // carrying more than MAX_MDOC_DOCUMENTS documents is refused anyway: more could never be answered.
  if (dcql.credentials.length > MAX_MDOC_DOCUMENTS) {
    return [{ pointer: `${at}/credentials`, detail: `protocol org-iso-mdoc asks for at most ${MAX_MDOC_DOCUMENTS} credentials (one DocRequest each), got ${dcql.credentials.length}` }];
  }
  const issues: FieldError[] = [];
  dcql.credentials.forEach((c, i) => {
    const where = `${at}/credentials/${i}`;
    if (c.format !== 'mso_mdoc') issues.push({ pointer: `${where}/format`, detail: `protocol org-iso-mdoc asks only for mso_mdoc credentials, not ${c.format}` });
    if (typeof c.meta?.doctype_value !== 'string' || c.meta.doctype_value === '') issues.push({ pointer: `${where}/meta/doctype_value`, detail: 'protocol org-iso-mdoc needs meta.doctype_value (the DocRequest docType)' });
    if (c.claims === undefined) issues.push({ pointer: `${where}/claims`, detail: 'protocol org-iso-mdoc needs claims: an ItemsRequest names every element it asks for' });
    c.claims?.forEach((claim, j) => {
      if (claim.path.length !== 2 || typeof claim.path[0] !== 'string' || typeof claim.path[1] !== 'string') {
        issues.push({ pointer: `${where}/claims/${j}/path`, detail: 'protocol org-iso-mdoc needs claim paths [namespace, element]' });
      }
    });
    if (c.claim_sets !== undefined) issues.push({ pointer: `${where}/claim_sets`, detail: 'protocol org-iso-mdoc cannot express claim_sets: a DeviceRequest asks for every element it names' });
  });
  return issues;
}

/** The ItemsRequest of one credential query: `{docType, nameSpaces: {ns: {element: intentToRetain}}}`. */
export function itemsRequestOf(credential: DcqlQuery['credentials'][number]): Map<string, unknown> {
  const nameSpaces = new Map<string, Map<string, boolean>>();
  for (const claim of credential.claims ?? []) {
    const [namespace, element] = claim.path as [string, string];
    let elements = nameSpaces.get(namespace);
    if (!elements) nameSpaces.set(namespace, (elements = new Map()));
    elements.set(element, claim.intent_to_retain === true);
  }
  return new Map<string, unknown>([
    ['docType', credential.meta!.doctype_value as string],
    ['nameSpaces', nameSpaces],
  ]);
}

/**
 * The base64url CBOR DeviceRequest: one DocRequest per credential query, in the query's order,
 * each with a readerAuth when `readerAuth` is given (signed concurrently: one call per DocRequest).
 */
export async function encodeDeviceRequest(dcql: DcqlQuery, readerAuth?: AnnexCReaderAuth): Promise<string> {
  const docRequests = await Promise.all(
    dcql.credentials.map(async (credential) => {
      const itemsRequestBytes = new Uint8Array(cbor.encode(itemsRequestOf(credential)));
      const docRequest = new Map<string, unknown>([['itemsRequest', new Tag(itemsRequestBytes, 24)]]);
      if (readerAuth) docRequest.set('readerAuth', await signReaderAuth(readerAuth.signer, readerAuth.sessionTranscript, itemsRequestBytes));
      return docRequest;
    }),
  );
  return bytesToBase64Url(cbor.encode(new Map<string, unknown>([['version', '1.0'], ['docRequests', docRequests]])));
}

/** The base64url CBOR EncryptionInfo `["dcapi", {nonce, recipientPublicKey}]`. */
export function encodeEncryptionInfo(nonce: Uint8Array, recipientPublicJwk: JsonWebKey): string {
  return bytesToBase64Url(cbor.encode(['dcapi', new Map<string, unknown>([['nonce', nonce], ['recipientPublicKey', p256JwkToCoseKey(recipientPublicJwk)]])]));
}

/**
 * A fresh nonce and P-256 recipient key, and the DeviceRequest for `dcql` (checked by
 * annexCQueryIssues). With `readerAuth`, each DocRequest is signed over the SessionTranscript of
 * this EncryptionInfo and `readerAuth.origin` (the page the wallet will be asked from).
 */
export async function buildAnnexCRequest(dcql: DcqlQuery, readerAuth?: { signer: ReaderAuthSigner; origin: string }): Promise<AnnexCRequest> {
  const { x, y, d } = freshP256Numbers(ecdh);
  const nonce = new Uint8Array(randomBytes(ANNEX_C_NONCE_BYTES));
  const encryptionInfo = encodeEncryptionInfo(nonce, { kty: 'EC', crv: 'P-256', x, y });
  const signing = readerAuth ? { signer: readerAuth.signer, sessionTranscript: sessionTranscriptBytes({ kind: 'annex_c', origin: readerAuth.origin, encryptionInfo }) } : undefined;
  return {
    deviceRequest: await encodeDeviceRequest(dcql, signing),
    encryptionInfo,
    nonce: bytesToBase64Url(nonce),
    recipient: { encryptionInfo, privateJwk: { kty: 'EC', crv: 'P-256', x, y, d } },
  };
}
