import { Encoder } from 'cbor-x';
import type { DcqlQuery } from '../model/authorization-record.js';
import { bytesToBase64Url } from '../crypto/base64url.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { CborBudget } from '../formats/shared/cbor-budget.js';
import { MAX_MDOC_DOCUMENTS } from '../formats/mso-mdoc/parse-mdoc.js';
import { decodeWalletCbor } from '../formats/shared/wallet-cbor.js';

// Re-encoding keeps every signed byte: issuerAuth's protected header and payload and each
// IssuerSignedItemBytes / DeviceNameSpacesBytes are byte strings (tag 24 keeps its content).
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const isMap = (value: unknown): value is Map<unknown, unknown> => value instanceof Map;

/**
 * The `vp_token` an Annex C DeviceResponse amounts to, so that it runs through the same format,
 * validate and verify policies as an OpenID4VP mdoc: one DeviceResponse per credential query,
 * holding the documents whose docType is that query's doctype_value. One query: the bytes as
 * received, not decoded here (the format policy decodes them once, under its budget).
 *
 * What the DeviceRequest did not ask for is refused where an OpenID4VP mdoc's is: an element by
 * the format policy (`format.claim_not_requested`, the query's claims being the ItemsRequest's
 * elements), a docType by the validator. A document of a docType no query names, or something
 * that is no document, is routed to the first query for those policies to reject.
 */
export function annexCVpToken(deviceResponse: Uint8Array, dcql: DcqlQuery, budget: CborBudget = new CborBudget()): Record<string, string[]> {
  const credentials = dcql.credentials;
  const whole = (): Record<string, string[]> => ({ [credentials[0]!.id]: [bytesToBase64Url(deviceResponse)] });
  if (credentials.length === 1) return whole();
  let root: unknown;
  try {
    root = decodeWalletCbor(deviceResponse, budget);
  } catch (cause) {
    throw new AuthorizerError('authorization.annex_c_malformed', { message: 'The decrypted org-iso-mdoc response is not a DeviceResponse a wallet may send.', cause });
  }
  const documents = isMap(root) ? root.get('documents') : undefined;
  if (!isMap(root) || !Array.isArray(documents) || documents.length === 0 || documents.length > MAX_MDOC_DOCUMENTS) return whole();

  const groups = new Map<string, unknown[]>(credentials.map((c) => [c.id, []]));
  for (const document of documents) {
    const docType = isMap(document) ? document.get('docType') : undefined;
    const query = credentials.find((c) => c.meta?.doctype_value === docType) ?? credentials[0]!;
    groups.get(query.id)!.push(document);
  }
  const token: Record<string, string[]> = {};
  for (const [id, docs] of groups) {
    if (docs.length === 0) continue;
    const part = new Map<unknown, unknown>(root);
    part.set('documents', docs);
    token[id] = [bytesToBase64Url(cbor.encode(part))];
  }
  return token;
}
