import { DataItem, DeviceRequest, DeviceResponse, MDoc, cborEncode, parseIssuerSigned } from '@animo-id/mdoc';
import type { JWK } from 'jose';
import { base64UrlToBytes, toBase64Url } from './base64url.js';
import { generateP256KeyPair } from './holder-key.js';
import { mdocContext } from './mdoc-context.js';
import { type HandoverInput, sessionTranscriptBytes } from './session-transcript.js';
import type { ClaimPath, MdocWalletCredential } from './wallet-credential.js';

export interface MdocPresentationInput {
  credential: MdocWalletCredential;
  /** `[namespace, element]` paths; undefined = every issuer-signed element. */
  disclose?: ClaimPath[];
  handover: HandoverInput;
  wrongDeviceKey?: boolean;
}

/**
 * base64url DeviceResponse with one document and a deviceSignature over the OpenID4VP 1.0
 * SessionTranscript. @animo-id/mdoc decodes the transcript it is given as a tag-24 DataItem, so
 * our bytes are wrapped in one before they are handed over.
 */
export async function presentMdoc(input: MdocPresentationInput): Promise<string> {
  const { credential } = input;
  const document = parseIssuerSigned(base64UrlToBytes(credential.issuerSigned), credential.docType);
  const nameSpaces = new Map<string, Map<string, boolean>>();
  const requested = input.disclose ?? document.issuerSignedNameSpaces.flatMap((ns) => [...document.getIssuerNameSpace(ns)!.keys()].map((el) => [ns, el]));
  for (const [namespace, element] of requested) {
    if (typeof namespace !== 'string' || typeof element !== 'string') throw new Error('test wallet: mdoc paths are [namespace, element]');
    if (!nameSpaces.has(namespace)) nameSpaces.set(namespace, new Map());
    nameSpaces.get(namespace)!.set(element, false);
  }
  const deviceKey = input.wrongDeviceKey ? await generateP256KeyPair() : credential.deviceKey;
  const transcript = await sessionTranscriptBytes(input.handover);
  const response = await DeviceResponse.from(new MDoc([document]))
    .usingDeviceRequest(DeviceRequest.from('1.0', [{ itemsRequestData: { docType: credential.docType, nameSpaces } }]))
    .usingSessionTranscriptBytes(cborEncode(new DataItem({ buffer: transcript })))
    .authenticateWithSignature(deviceKey.privateJwk as JWK, 'ES256')
    .sign(mdocContext);
  return toBase64Url(response.encode());
}
