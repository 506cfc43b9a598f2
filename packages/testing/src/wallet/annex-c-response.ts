import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { X509Certificate } from 'node:crypto';
import { verifyReaderAuth } from '@vp-authorizer/core/formats';
import { Decoder, Encoder, Tag } from 'cbor-x';
import { base64UrlToBytes, toBase64Url } from './base64url.js';
import { presentMdoc } from './mdoc-presentation.js';
import { sessionTranscriptBytes } from './session-transcript.js';
import type { ClaimPath, MdocWalletCredential } from './wallet-credential.js';

/** The `digitalCredentialGetRequest` of protocol org-iso-mdoc (ISO/IEC 18013-7 Annex C). */
export interface AnnexCGetRequest {
  protocol: 'org-iso-mdoc';
  data: { deviceRequest: string; encryptionInfo: string };
}

/** What the wallet read from an Annex C request. */
export interface ReceivedAnnexCRequest {
  /**
   * Per DocRequest: its docType, the `[namespace, element]` paths it asks for, the ItemsRequest
   * bytes as received (what a readerAuth signs) and its readerAuth, if any.
   */
  docRequests: { docType: string; elements: [string, string][]; intentToRetain: boolean[]; itemsRequestBytes: Uint8Array; readerAuth?: unknown }[];
  nonce: Uint8Array;
  recipientPublicJwk: JsonWebKey;
}

/** Knobs that make an Annex C response wrong in exactly one way. */
export interface AnnexCTamper {
  /** Encrypt with the SessionTranscript of this origin instead of the browser's. */
  encryptForOrigin?: string;
  /** Encrypt to this public key instead of the request's recipient key. */
  recipientPublicJwk?: JsonWebKey;
  /** Sign DeviceAuth over the SessionTranscript of this origin (the HPKE info stays right). */
  deviceAuthOrigin?: string;
  /** Disclose these elements too, though the request did not ask for them. */
  extraElements?: ClaimPath[];
}

const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
const buffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

/** Reads the DeviceRequest and EncryptionInfo of an org-iso-mdoc request. */
export function receiveAnnexCRequest(getRequest: AnnexCGetRequest): ReceivedAnnexCRequest {
  if (getRequest.protocol !== 'org-iso-mdoc') throw new Error(`test wallet: not an org-iso-mdoc request (${String(getRequest.protocol)})`);
  const deviceRequest = decoder.decode(base64UrlToBytes(getRequest.data.deviceRequest)) as Map<string, unknown>;
  if (deviceRequest.get('version') !== '1.0') throw new Error('test wallet: DeviceRequest version must be 1.0');
  const docRequests = (deviceRequest.get('docRequests') as Map<string, unknown>[]).map((docRequest) => {
    const tagged = docRequest.get('itemsRequest');
    if (!(tagged instanceof Tag) || tagged.tag !== 24) throw new Error('test wallet: itemsRequest must be embedded CBOR (tag 24)');
    const items = decoder.decode(tagged.value as Uint8Array) as Map<string, unknown>;
    const elements: [string, string][] = [];
    const intentToRetain: boolean[] = [];
    for (const [namespace, entries] of items.get('nameSpaces') as Map<string, Map<string, boolean>>) {
      for (const [element, retain] of entries) {
        elements.push([namespace, element]);
        intentToRetain.push(retain);
      }
    }
    return { docType: items.get('docType') as string, elements, intentToRetain, itemsRequestBytes: new Uint8Array(tagged.value as Uint8Array), ...(docRequest.has('readerAuth') ? { readerAuth: docRequest.get('readerAuth') } : {}) };
  });
  const [label, info] = decoder.decode(base64UrlToBytes(getRequest.data.encryptionInfo)) as [string, Map<string, unknown>];
  if (label !== 'dcapi') throw new Error('test wallet: EncryptionInfo must start with "dcapi"');
  const key = info.get('recipientPublicKey') as Map<number, unknown>;
  if (key.get(1) !== 2 || key.get(-1) !== 1) throw new Error('test wallet: recipientPublicKey must be an EC2 P-256 COSE_Key');
  return {
    docRequests,
    nonce: info.get('nonce') as Uint8Array,
    recipientPublicJwk: { kty: 'EC', crv: 'P-256', x: toBase64Url(key.get(-2) as Uint8Array), y: toBase64Url(key.get(-3) as Uint8Array) },
  };
}

/** How the wallet treats readerAuth; it always checks a readerAuth a DocRequest carries. */
export interface AnnexCReaderAuthOptions {
  /** Refuse DocRequests without readerAuth, as wallets that require reader authentication do. */
  requireReaderAuth?: boolean;
  /** Reader CA certificates (PEM); when given, a reader certificate must be issued by one of them. */
  readerTrustAnchors?: readonly string[];
}

/**
 * Checks each DocRequest's readerAuth over the SessionTranscript of `origin` (the page the browser
 * reports), as a wallet does before it shows the request: a readerAuth that does not verify, or
 * signed for another origin or other elements, is refused. Answers each reader certificate (PEM),
 * `undefined` for a DocRequest without readerAuth.
 */
export async function checkAnnexCReaderAuth(request: ReceivedAnnexCRequest, encryptionInfo: string, origin: string, options: AnnexCReaderAuthOptions = {}): Promise<(string | undefined)[]> {
  const transcript = await sessionTranscriptBytes({ kind: 'annex_c', origin, encryptionInfo });
  const anchors = options.readerTrustAnchors?.map((pem) => new X509Certificate(pem));
  return request.docRequests.map((docRequest, i) => {
    const which = `DocRequest ${i} (${docRequest.docType})`;
    if (docRequest.readerAuth === undefined) {
      if (options.requireReaderAuth) throw new Error(`test wallet: ${which} carries no readerAuth, and this wallet requires reader authentication`);
      return undefined;
    }
    const checked = verifyReaderAuth(docRequest.readerAuth, transcript, docRequest.itemsRequestBytes);
    if (!checked.valid) throw new Error(`test wallet: the readerAuth of ${which} is refused: ${checked.reason}`);
    const last = new X509Certificate(checked.certificateChain[checked.certificateChain.length - 1]!);
    if (anchors && !anchors.some((anchor) => last.checkIssued(anchor) && last.verify(anchor.publicKey))) {
      throw new Error(`test wallet: the reader certificate of ${which} (${checked.leaf.subject}) is not issued by a trusted reader CA`);
    }
    return checked.leaf.toString();
  });
}

/**
 * What a browser returns for an org-iso-mdoc request: `{protocol, data: {response}}` with
 * `response` = base64url CBOR `["dcapi", {enc, cipherText}]`, the DeviceResponse (one document per
 * DocRequest, each with a deviceSignature over the Annex C SessionTranscript) sealed with HPKE to
 * the request's recipient key, `info` = that SessionTranscript, empty aad.
 */
export async function respondAnnexC(
  getRequest: AnnexCGetRequest,
  credentials: readonly MdocWalletCredential[],
  options: { origin: string; tamper?: AnnexCTamper } & AnnexCReaderAuthOptions,
): Promise<{
  request: ReceivedAnnexCRequest;
  /** Per DocRequest, the PEM of the reader certificate whose readerAuth verified (undefined: none sent). */
  readerCertificates: (string | undefined)[];
  deviceResponse: Uint8Array;
  digitalCredentialGetResponse: { protocol: 'org-iso-mdoc'; data: { response: string } };
}> {
  const request = receiveAnnexCRequest(getRequest);
  const readerCertificates = await checkAnnexCReaderAuth(request, getRequest.data.encryptionInfo, options.origin, options);
  const tamper = options.tamper ?? {};
  const transcriptFor = (origin: string) => ({ kind: 'annex_c' as const, origin, encryptionInfo: getRequest.data.encryptionInfo });
  const documents: unknown[] = [];
  for (const docRequest of request.docRequests) {
    const credential = credentials.find((c) => c.docType === docRequest.docType);
    if (!credential) throw new Error(`test wallet: no mdoc of docType ${docRequest.docType}`);
    const presented = await presentMdoc({
      credential,
      disclose: [...docRequest.elements, ...(tamper.extraElements ?? [])],
      handover: transcriptFor(tamper.deviceAuthOrigin ?? options.origin),
    });
    documents.push(...((decoder.decode(base64UrlToBytes(presented)) as Map<string, unknown>).get('documents') as unknown[]));
  }
  const deviceResponse = new Uint8Array(encoder.encode(new Map<string, unknown>([['version', '1.0'], ['documents', documents], ['status', 0]])));
  const info = await sessionTranscriptBytes(transcriptFor(tamper.encryptForOrigin ?? options.origin));
  const recipientPublicKey = await suite.kem.importKey('jwk', tamper.recipientPublicJwk ?? request.recipientPublicJwk, true);
  const sealed = await suite.seal({ recipientPublicKey, info: buffer(info) }, buffer(deviceResponse), new ArrayBuffer(0));
  const response = toBase64Url(encoder.encode(['dcapi', new Map<string, Uint8Array>([['enc', new Uint8Array(sealed.enc)], ['cipherText', new Uint8Array(sealed.ct)]])]));
  return { request, readerCertificates, deviceResponse, digitalCredentialGetResponse: { protocol: 'org-iso-mdoc', data: { response } } };
}
