import { Encoder, Tag } from 'cbor-x';
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
 * holding the documents whose docType is that query's doctype_value. One query: the bytes as received.
 *
 * A document of a docType no query names, or an IssuerSignedItem for an element the DeviceRequest
 * did not ask for, is refused here (`authorization.annex_c_element_not_requested`): the request
 * named every document and element it wanted.
 * Anything structurally odd is left to the format policy, which rejects it with its own codes.
 */
export function annexCVpToken(deviceResponse: Uint8Array, dcql: DcqlQuery, budget: CborBudget = new CborBudget()): Record<string, string[]> {
  const credentials = dcql.credentials;
  const whole = (): Record<string, string[]> => ({ [credentials[0]!.id]: [bytesToBase64Url(deviceResponse)] });
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
    // Not a document at all: the format policy rejects it with its own codes.
    if (!isMap(document)) {
      groups.get(credentials[0]!.id)!.push(document);
      continue;
    }
    const docType = document.get('docType');
    const query = credentials.find((c) => c.meta?.doctype_value === docType);
    // A document nobody asked for would otherwise reach the results whenever the validator does not
    // compare docTypes (a remote or pass-through one): refused like an element not asked for.
    if (!query) {
      throw new AuthorizerError('authorization.annex_c_element_not_requested', {
        message: 'The org-iso-mdoc response holds a document of a docType the request did not ask for.',
      });
    }
    assertOnlyRequestedElements(document, query, budget);
    groups.get(query.id)!.push(document);
  }
  if (credentials.length === 1) return whole();
  const token: Record<string, string[]> = {};
  for (const [id, docs] of groups) {
    if (docs.length === 0) continue;
    const part = new Map<unknown, unknown>(root);
    part.set('documents', docs);
    token[id] = [bytesToBase64Url(cbor.encode(part))];
  }
  return token;
}

function assertOnlyRequestedElements(document: Map<unknown, unknown>, query: DcqlQuery['credentials'][number], budget: CborBudget): void {
  const asked = new Set((query.claims ?? []).map((claim) => JSON.stringify(claim.path)));
  const issuerSigned = document.get('issuerSigned');
  const nameSpaces = isMap(issuerSigned) ? issuerSigned.get('nameSpaces') : undefined;
  if (!isMap(nameSpaces)) return;
  for (const [namespace, items] of nameSpaces) {
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      if (!(item instanceof Tag) || item.tag !== 24 || !(item.value instanceof Uint8Array)) continue;
      let decoded: unknown;
      try {
        decoded = decodeWalletCbor(item.value, budget);
      } catch (cause) {
        throw new AuthorizerError('authorization.annex_c_malformed', { message: 'An IssuerSignedItem of the org-iso-mdoc response is not CBOR a wallet may send.', cause });
      }
      const element = isMap(decoded) ? decoded.get('elementIdentifier') : undefined;
      if (typeof namespace === 'string' && typeof element === 'string' && !asked.has(JSON.stringify([namespace, element]))) {
        // The element names are public data-element identifiers, not values: safe to name.
        throw new AuthorizerError('authorization.annex_c_element_not_requested', { message: `The response discloses ${namespace.slice(0, 64)} / ${element.slice(0, 64)}, which the request did not ask for.` });
      }
    }
  }
}
