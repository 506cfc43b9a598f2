import { createHash } from 'node:crypto';
import type { ParsedMdoc, PolicyResult, VerifyInput } from '@vp-authorizer/core';
import { msoMdoc } from '@vp-authorizer/core/formats';
import { base64UrlToBytes } from '../encoding.js';
import { publicKeyFromJwk } from '../jws.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveX5cKey } from '../resolve-signer-key.js';
import { checkNotAfter, checkNotBefore, timeOf } from '../time-checks.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkDocumentSignerEku } from './check-document-signer-eku.js';
import { coseKeyToJwk } from './cose-key.js';
import { coseAlgorithm, coseX5chain, parseCoseSign1, verifyCoseSign1 } from './cose-sign1.js';
import { decodeCbor, encodeCbor, isBytes, isMap, tag24Content, tag24Encoding } from './mdoc-cbor.js';
import { sessionTranscriptBytes } from '@vp-authorizer/core/formats';
import { unsupportedTransactionData } from '../unsupported-transaction-data.js';

const DIGEST_ALGS: Record<string, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

const invalid = (detail: string) => new PolicyFailure('mdoc.invalid', detail);

function decodeTag24(value: unknown, what: string): { bytes: Uint8Array; decoded: unknown } {
  const content = tag24Content(value);
  if (!content) throw invalid(`${what} is not an embedded CBOR item (tag 24)`);
  try {
    return { bytes: tag24Encoding(content), decoded: decodeCbor(content) };
  } catch {
    throw invalid(`${what} is not valid CBOR`);
  }
}

interface IssuerAuthResult {
  mso: Map<unknown, unknown>;
  data: Record<string, unknown>;
}

/** issuerAuth: x5chain to an IACA, signature, MSO docType, value digests of every issuer-signed item. */
async function verifyIssuerAuth(docType: string, issuerSigned: Map<unknown, unknown>, ctx: VerifierContext): Promise<IssuerAuthResult> {
  const sign1 = parseCoseSign1(issuerSigned.get('issuerAuth'), 'mdoc.invalid', 'issuerAuth');
  const alg = coseAlgorithm(sign1, ctx.allowedAlgs, 'issuerAuth');
  const x5chain = coseX5chain(sign1);
  if (!x5chain) throw new PolicyFailure('trusted_issuer.x5c_required', 'issuerAuth has no x5chain (label 33)');
  const signer = await resolveX5cKey(x5chain, ctx, { credentialTypes: [docType] });
  if (signer.x5c) checkDocumentSignerEku(signer.x5c.leaf);
  if (!verifyCoseSign1(sign1, signer.key)) throw new PolicyFailure('proof.signature_invalid', 'The issuerAuth signature could not be verified');
  let payload: unknown;
  try {
    payload = sign1.payload === null ? undefined : decodeCbor(sign1.payload);
  } catch {
    throw invalid('The issuerAuth payload is not valid CBOR');
  }
  const { decoded: mso } = decodeTag24(payload, 'The MSO');
  if (!isMap(mso)) throw invalid('The MSO is not a map');
  if (mso.get('docType') !== docType) throw new PolicyFailure('mdoc.doctype_mismatch');
  const hash = DIGEST_ALGS[mso.get('digestAlgorithm') as string];
  if (!hash) throw invalid('The MSO digestAlgorithm is not supported');
  const valueDigests = mso.get('valueDigests');
  if (!isMap(valueDigests)) throw invalid('The MSO has no valueDigests');
  const nameSpaces = issuerSigned.get('nameSpaces') ?? new Map();
  if (!isMap(nameSpaces)) throw invalid('issuerSigned.nameSpaces is not a map');
  let elements = 0;
  for (const [ns, items] of nameSpaces) {
    if (typeof ns !== 'string' || !Array.isArray(items)) throw invalid('issuerSigned.nameSpaces is malformed');
    const digests = valueDigests.get(ns);
    for (const item of items) {
      // The digest covers IssuerSignedItemBytes = #6.24(bstr) as encoded, tag included.
      const { bytes, decoded } = decodeTag24(item, 'An IssuerSignedItem');
      if (!isMap(decoded) || typeof decoded.get('digestID') !== 'number') throw invalid('An IssuerSignedItem has no digestID');
      const expected = isMap(digests) ? digests.get(decoded.get('digestID')) : undefined;
      const actual = createHash(hash).update(bytes).digest();
      if (!isBytes(expected) || !actual.equals(expected)) {
        throw new PolicyFailure('mdoc.digest_mismatch', `The element ${ns}/${String(decoded.get('elementIdentifier')).slice(0, 64)} does not match its MSO digest`);
      }
      elements++;
    }
  }
  return { mso, data: { docType, alg, ...signer.data, issuerSignedElements: elements } };
}

function checkKeyAuthorizations(mso: Map<unknown, unknown>, deviceNameSpaces: unknown): void {
  if (!isMap(deviceNameSpaces) || deviceNameSpaces.size === 0) return;
  const deviceKeyInfo = mso.get('deviceKeyInfo') as Map<unknown, unknown>;
  const auth = deviceKeyInfo.get('keyAuthorizations');
  const allNs = isMap(auth) && Array.isArray(auth.get('nameSpaces')) ? (auth.get('nameSpaces') as unknown[]) : [];
  const perElement = isMap(auth) && isMap(auth.get('dataElements')) ? (auth.get('dataElements') as Map<unknown, unknown>) : new Map();
  for (const [ns, elements] of deviceNameSpaces) {
    if (allNs.includes(ns)) continue;
    const allowed = perElement.get(ns);
    for (const id of isMap(elements) ? elements.keys() : []) {
      if (!Array.isArray(allowed) || !allowed.includes(id)) throw new PolicyFailure('mdoc.unauthorized_device_element');
    }
  }
}

/** deviceSignature over DeviceAuthenticationBytes, with the MSO device key. */
function verifyDeviceAuth(docType: string, deviceSigned: unknown, mso: Map<unknown, unknown>, required: boolean, transcript: Uint8Array, ctx: VerifierContext): Record<string, unknown> {
  const deviceAuth = isMap(deviceSigned) ? deviceSigned.get('deviceAuth') : undefined;
  if (isMap(deviceAuth) && deviceAuth.has('deviceMac') && !deviceAuth.has('deviceSignature')) throw new PolicyFailure('mdoc.device_mac_unsupported');
  if (!isMap(deviceSigned) || !isMap(deviceAuth) || !deviceAuth.has('deviceSignature')) {
    if (required) throw new PolicyFailure('holder_binding.missing', 'The document has no deviceSignature');
    return { method: 'none', required: false };
  }
  const sign1 = parseCoseSign1(deviceAuth.get('deviceSignature'), 'mdoc.device_signature_invalid', 'deviceSignature');
  const alg = coseAlgorithm(sign1, ctx.allowedAlgs, 'deviceSignature');
  if (sign1.payload !== null) throw new PolicyFailure('mdoc.device_signature_invalid', 'The deviceSignature payload must be detached');
  const deviceKeyInfo = mso.get('deviceKeyInfo');
  if (!isMap(deviceKeyInfo)) throw new PolicyFailure('mdoc.device_key_invalid', 'The MSO has no deviceKeyInfo');
  const key = publicKeyFromJwk(coseKeyToJwk(deviceKeyInfo.get('deviceKey')), 'mdoc.device_key_invalid', 'MSO device key');
  const nameSpaces = decodeTag24(deviceSigned.get('nameSpaces'), 'deviceSigned.nameSpaces');
  checkKeyAuthorizations(mso, nameSpaces.decoded);
  // DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, docType, DeviceNameSpacesBytes],
  // assembled from the exact transcript and namespace bytes rather than re-encoded values.
  const deviceAuthentication = Buffer.concat([Buffer.from([0x84]), encodeCbor('DeviceAuthentication'), transcript, encodeCbor(docType), nameSpaces.bytes]);
  if (!verifyCoseSign1(sign1, key, tag24Encoding(deviceAuthentication))) throw new PolicyFailure('mdoc.device_signature_invalid');
  return { method: 'deviceSignature', alg };
}

/**
 * mdoc DeviceResponse (ISO 18013-5 via OpenID4VP B.2): per document issuerAuth, validity,
 * deviceSignature over the OpenID4VP SessionTranscript. Re-decodes the raw bytes itself.
 */
export async function verifyMdoc(presentation: ParsedMdoc, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  let response: unknown;
  try {
    response = decodeCbor(base64UrlToBytes(presentation.raw));
  } catch {
    return [failed(path, 'format', 'format.malformed', 'The DeviceResponse is not base64url CBOR')];
  }
  if (!isMap(response)) return [failed(path, 'format', 'format.malformed', 'The DeviceResponse is not a CBOR map')];
  if (response.get('status') !== 0) return [failed(path, 'proof', 'mdoc.status_error', `The DeviceResponse status is ${String(response.get('status')).slice(0, 12)}`)];
  const documents = response.get('documents');
  if (!Array.isArray(documents) || documents.length === 0) return [failed(path, 'format', 'format.malformed', 'The DeviceResponse has no documents')];
  if (ctx.haip && documents.length !== 1) return [failed(path, 'proof', 'mdoc.document_count')];
  const transcript = sessionTranscriptBytes(input.sessionTranscript);
  const required = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;

  const results: PolicyResult[] = [];
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, msoMdoc.id);
  if (txFailure) results.push(txFailure);
  for (const [docIndex, doc] of documents.entries()) {
    const docPath = [...path, docIndex];
    const docType = isMap(doc) ? doc.get('docType') : undefined;
    const issuerSigned = isMap(doc) ? doc.get('issuerSigned') : undefined;
    if (typeof docType !== 'string' || !isMap(issuerSigned)) {
      results.push(failed(docPath, 'format', 'format.malformed', 'The document has no docType or issuerSigned'));
      continue;
    }
    let issuer: IssuerAuthResult | undefined;
    const proof = await runPolicy(docPath, 'proof', async () => {
      issuer = await verifyIssuerAuth(docType, issuerSigned, ctx);
      return issuer.data;
    });
    results.push(proof);
    if (!issuer) continue;
    const { mso } = issuer;
    const validity = mso.get('validityInfo');
    const v = isMap(validity) ? validity : new Map();
    const docResults = [
      await runPolicy(docPath, 'notBefore', () => {
        const from = timeOf(v.get('validFrom'), 'validFrom');
        if (from === undefined) throw new PolicyFailure('validity.invalid', 'The MSO has no validFrom');
        return checkNotBefore(from, ctx.now, ctx.options.clockSkewMs, 'validFrom');
      }),
      await runPolicy(docPath, 'notAfter', () => {
        const until = timeOf(v.get('validUntil'), 'validUntil');
        if (until === undefined) throw new PolicyFailure('validity.invalid', 'The MSO has no validUntil');
        return checkNotAfter(until, ctx.now, ctx.options.clockSkewMs, 'validUntil');
      }),
      await runPolicy(docPath, 'holderBinding', () => verifyDeviceAuth(docType, (doc as Map<unknown, unknown>).get('deviceSigned'), mso, required, transcript, ctx)),
    ];
    // MSO status (ISO 18013-5 2nd ed. status list, a CWT) is not implemented: fail closed.
    docResults.push(
      mso.has('status')
        ? failed(docPath, 'status', 'status.unsupported', 'mdoc MSO status (CWT status lists) is not supported by the local verifier')
        : passed(docPath, 'status', { checked: false, reason: 'the MSO has no status' }),
    );
    results.push(...docResults);
  }
  return results;
}

