import { Tag } from 'cbor-x';
import { base64UrlToBytes } from '../../crypto/base64url.js';
import { CborBudget, CborBudgetExceeded } from '../shared/cbor-budget.js';
import { cborToJson } from '../shared/cbor-to-json.js';
import { FormatFailure } from '../format-error.js';
import type { PresentationRef } from '../format-descriptor.js';
import type { MdocIssuerSignedItem, ParsedMdoc, ParsedMdocDocument } from '../../model/parsed-presentation.js';
import { decodeWalletCbor } from '../shared/wallet-cbor.js';
import { claimPathKey } from '../shared/claim-path-key.js';

/** Documents one DeviceResponse may carry (ISO 18013-5 wallets send one per requested doctype). */
export const MAX_MDOC_DOCUMENTS = 10;

const isMap = (value: unknown): value is Map<unknown, unknown> => value instanceof Map;

/** `#6.24(bstr .cbor X)` → X. */
function embedded(value: unknown, budget: CborBudget): unknown {
  if (value instanceof Tag && value.tag === 24 && value.value instanceof Uint8Array) return decodeWalletCbor(value.value, budget);
  throw new TypeError('expected embedded CBOR (tag 24)');
}

/**
 * Decodes a base64url `DeviceResponse` (ISO 18013-5 8.3.2.1.2.2) into its documents and the
 * issuer-signed elements as JSON. Structural only: issuerAuth, digests and deviceAuth are
 * verified by the verify policy from `raw`. `profile: 'haip'` requires exactly one document.
 * All decoding is charged to `options.budget`, which the caller shares across the response.
 * Every element is selectively disclosable: with `options.selectedClaims`, an element outside
 * them is refused (`format.claim_not_requested`, OpenID4VP 1.0 section 6.4), before its value is converted.
 */
export function parseMdoc(value: unknown, ref: PresentationRef, options: { profile?: 'haip'; budget?: CborBudget; selectedClaims?: ReadonlySet<string> } = {}): ParsedMdoc {
  const budget = options.budget ?? new CborBudget();
  const fail = (detail: string, cause?: unknown): never => {
    // Running out of budget is reported as such whatever was being decoded.
    if (cause instanceof CborBudgetExceeded) throw new FormatFailure('format.cbor_budget_exceeded', 'the DeviceResponse needs more CBOR decoding work than allowed', ref.path);
    throw new FormatFailure('format.mdoc_malformed', detail, ref.path);
  };
  if (typeof value !== 'string') return fail('an mdoc presentation must be a base64url string');
  let root: unknown;
  try {
    root = decodeWalletCbor(base64UrlToBytes(value), budget);
  } catch (error) {
    return fail('the DeviceResponse is not base64url-encoded CBOR or uses CBOR features a wallet may not use', error);
  }
  if (!isMap(root)) return fail('the DeviceResponse is not a CBOR map');
  const version = root.get('version');
  const status = root.get('status');
  const documents = root.get('documents');
  if (typeof version !== 'string') return fail('DeviceResponse.version must be a text string');
  if (typeof status !== 'number' || !Number.isInteger(status)) return fail('DeviceResponse.status must be an unsigned integer');
  if (!Array.isArray(documents) || documents.length === 0) return fail('DeviceResponse.documents must be a non-empty array');
  // Each document brings an issuer chain and signatures for the verifier to check.
  if (documents.length > MAX_MDOC_DOCUMENTS) return fail(`a DeviceResponse may carry at most ${MAX_MDOC_DOCUMENTS} documents, got ${documents.length}`);
  if (options.profile === 'haip' && documents.length !== 1) {
    throw new FormatFailure('format.haip_violation', `HAIP requires exactly one document per mdoc presentation, got ${documents.length}`, ref.path);
  }

  const parsedDocuments = documents.map((document, d): ParsedMdocDocument => {
    const where = `documents[${d}]`;
    if (!isMap(document)) return fail(`${where} is not a CBOR map`);
    const docType = document.get('docType');
    if (typeof docType !== 'string' || docType === '') return fail(`${where}.docType must be a non-empty text string`);
    const issuerSigned = document.get('issuerSigned');
    if (!isMap(issuerSigned)) return fail(`${where}.issuerSigned must be a map`);
    const issuerAuth = issuerSigned.get('issuerAuth');
    const coseSign1 = issuerAuth instanceof Tag && issuerAuth.tag === 18 ? issuerAuth.value : issuerAuth;
    if (!Array.isArray(coseSign1) || coseSign1.length !== 4) return fail(`${where}.issuerSigned.issuerAuth must be a COSE_Sign1`);

    const nameSpaces: Record<string, MdocIssuerSignedItem[]> = {};
    const rawNameSpaces = issuerSigned.get('nameSpaces');
    if (rawNameSpaces !== undefined) {
      if (!isMap(rawNameSpaces)) return fail(`${where}.issuerSigned.nameSpaces must be a map`);
      for (const [namespace, items] of rawNameSpaces) {
        if (typeof namespace !== 'string' || !Array.isArray(items)) return fail(`${where}.issuerSigned.nameSpaces must map text strings to arrays`);
        const decodedItems = items.map((item, i): MdocIssuerSignedItem => {
          let decoded: unknown;
          try {
            decoded = embedded(item, budget);
          } catch (error) {
            return fail(`${where} namespace item ${i} is not an embedded IssuerSignedItem`, error);
          }
          if (!isMap(decoded)) return fail(`${where} namespace item ${i} is not a map`);
          const digestID = decoded.get('digestID');
          const elementIdentifier = decoded.get('elementIdentifier');
          if (typeof digestID !== 'number' || !Number.isInteger(digestID) || digestID < 0) return fail(`${where} namespace item ${i} has no valid digestID`);
          if (typeof elementIdentifier !== 'string') return fail(`${where} namespace item ${i} has no elementIdentifier`);
          if (options.selectedClaims && !options.selectedClaims.has(claimPathKey([namespace, elementIdentifier]))) {
            // Data-element identifiers are public names, not values: safe to name (clipped).
            throw new FormatFailure('format.claim_not_requested', `${where} discloses ${namespace.slice(0, 64)} / ${elementIdentifier.slice(0, 64)}, which no credential query of the request selected`, ref.path);
          }
          if (!decoded.has('elementValue')) return fail(`${where} namespace item ${i} has no elementValue`);
          let elementValue: unknown;
          try {
            elementValue = cborToJson(decoded.get('elementValue'), budget);
          } catch (error) {
            return fail(`${where} namespace item ${i} has an element value that cannot be converted`, error);
          }
          return { digestID, elementIdentifier, elementValue };
        });
        // Own property even for a "__proto__" namespace name.
        Object.defineProperty(nameSpaces, namespace, { value: decodedItems, enumerable: true, writable: true, configurable: true });
      }
    }

    // deviceSigned is structurally optional here; a missing deviceSignature is a verify failure
    // when holder binding is required.
    const deviceSigned = document.get('deviceSigned');
    let hasDeviceSignature = false;
    let hasDeviceMac = false;
    if (deviceSigned !== undefined) {
      if (!isMap(deviceSigned)) return fail(`${where}.deviceSigned must be a map`);
      const deviceAuth = deviceSigned.get('deviceAuth');
      if (!isMap(deviceAuth)) return fail(`${where}.deviceSigned.deviceAuth must be a map`);
      hasDeviceSignature = deviceAuth.has('deviceSignature');
      hasDeviceMac = deviceAuth.has('deviceMac');
    }
    return { docType, nameSpaces, hasDeviceSignature, hasDeviceMac };
  });

  return { ...ref, kind: 'mdoc', raw: value, version, status, documents: parsedDocuments };
}
