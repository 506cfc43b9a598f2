import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { type FlattenedJWSInput, base64url, flattenedVerify, importX509 } from 'jose';
import { openid4vcCallbacks } from './openid4vc-callbacks.js';
import { allowInsecureUrlsForTests, checkRequestObjectHeader, checkSignerHeader, clientIdMatchesLeaf, toReceivedRequest } from './receive-request.js';
import type { ReceivedRequest } from './received-request.js';

/** The `digitalCredentialGetRequest` of a DC API authorization (one entry of `digital.requests`). */
export interface DcApiGetRequest {
  protocol: string;
  data: Record<string, unknown>;
}

/** One signature of a multi-signed request, as the wallet checked it. */
export interface CheckedSignature {
  clientId: string;
  x5c: string[];
  /** The x5c chain leads to one of the wallet's trust anchors (always true without anchors). */
  trusted: boolean;
}

/**
 * Reads a DC API request as the browser hands it to a wallet. Unsigned: `data` holds the
 * parameters. Signed: `data.request` is a JAR, verified like a redirect-flow request object;
 * the library also checks that `expected_origins` contains the origin. Multi-signed: see
 * {@link verifyMultiSignedRequest}.
 */
export async function receiveDcApiRequest(getRequest: DcApiGetRequest, origin: string, options: { verifierTrustAnchors?: string[] } = {}): Promise<ReceivedRequest> {
  allowInsecureUrlsForTests();
  let params: Record<string, unknown>;
  let signed: { requestObject?: string; x5c: string[] } | undefined;
  let signatures: CheckedSignature[] | undefined;
  if (getRequest.protocol === 'openid4vp-v1-unsigned') {
    params = getRequest.data;
    if ('client_id' in params) throw new Error('test wallet: an unsigned DC API request must not carry client_id');
  } else if (getRequest.protocol === 'openid4vp-v1-signed') {
    const requestObject = getRequest.data.request;
    if (typeof requestObject !== 'string') throw new Error('test wallet: signed DC API request without data.request');
    const x5c = await checkRequestObjectHeader(requestObject, options.verifierTrustAnchors);
    const resolved = await resolveOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: { request: requestObject },
      origin,
      callbacks: openid4vcCallbacks,
    });
    params = resolved.authorizationRequestPayload as Record<string, unknown>;
    const expectedOrigins = params.expected_origins;
    if (!Array.isArray(expectedOrigins) || !expectedOrigins.includes(origin)) throw new Error(`test wallet: ${origin} is not in expected_origins`);
    signed = { requestObject, x5c };
  } else if (getRequest.protocol === 'openid4vp-v1-multisigned') {
    const verified = await verifyMultiSignedRequest(getRequest.data, options.verifierTrustAnchors);
    signatures = verified.signatures;
    const chosen = verified.signatures.find((s) => s.trusted)!;
    // The client_id (and verifier_info) of the signature this wallet trusts apply (appendix A.3.2).
    params = { ...verified.payload, client_id: chosen.clientId, ...(verified.verifierInfo !== undefined ? { verifier_info: verified.verifierInfo } : {}) };
    const expectedOrigins = params.expected_origins;
    if (!Array.isArray(expectedOrigins) || !expectedOrigins.includes(origin)) throw new Error(`test wallet: ${origin} is not in expected_origins`);
    signed = { x5c: chosen.x5c };
  } else {
    throw new Error(`test wallet: DC API protocol ${getRequest.protocol} is not supported`);
  }
  const request = toReceivedRequest(params);
  if (request.responseMode !== 'dc_api' && request.responseMode !== 'dc_api.jwt') throw new Error(`test wallet: DC API request with response_mode ${request.responseMode}`);
  return { ...request, origin, ...(signed ?? {}), ...(signatures ? { signatures } : {}) };
}

/**
 * Checks every signature of a JWS JSON serialization (OpenID4VP 1.0 appendix A.3.2): each
 * protected header passes the header rules, carries a client_id bound to its own x5c leaf, and
 * its signature verifies with that leaf; the payload carries no client_id. A wallet needs only
 * one signature whose chain it trusts, so the request is refused only when none is trusted (or
 * any signature is broken).
 */
export async function verifyMultiSignedRequest(
  data: Record<string, unknown>,
  trustAnchors?: string[],
): Promise<{ payload: Record<string, unknown>; signatures: CheckedSignature[]; verifierInfo?: unknown }> {
  const { payload, signatures } = data;
  if (typeof payload !== 'string' || !Array.isArray(signatures) || signatures.length === 0) {
    throw new Error('test wallet: multi-signed DC API request needs data.payload and a non-empty data.signatures');
  }
  const checked: CheckedSignature[] = [];
  let verifierInfo: unknown;
  for (const [i, entry] of (signatures as { protected?: unknown; signature?: unknown }[]).entries()) {
    if (typeof entry.protected !== 'string' || typeof entry.signature !== 'string') throw new Error(`test wallet: signature ${i} lacks protected or signature`);
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(entry.protected))) as Record<string, unknown>;
    const { x5c, trusted } = await checkSignerHeader(header, trustAnchors);
    const clientId = header.client_id;
    if (typeof clientId !== 'string') throw new Error(`test wallet: signature ${i} has no client_id in its protected header`);
    if (!clientIdMatchesLeaf(clientId, x5c)) throw new Error(`test wallet: signature ${i}: client_id ${clientId} does not match its x5c leaf`);
    const key = await importX509(`-----BEGIN CERTIFICATE-----\n${x5c[0]!.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`, 'ES256');
    const jws: FlattenedJWSInput = { payload, protected: entry.protected, signature: entry.signature };
    try {
      await flattenedVerify(jws, key, { algorithms: ['ES256'] });
    } catch {
      throw new Error(`test wallet: signature ${i} (${clientId}) does not verify`);
    }
    if (header.verifier_info !== undefined) verifierInfo ??= header.verifier_info;
    checked.push({ clientId, x5c, trusted });
  }
  if (!checked.some((s) => s.trusted)) throw new Error('test wallet: no signature of the multi-signed request leads to a trusted verifier root');
  const decoded = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>;
  if ('client_id' in decoded) throw new Error('test wallet: a multi-signed request must carry client_id only in the protected headers');
  const exp = decoded.exp;
  if (typeof exp === 'number' && exp * 1000 < Date.now()) throw new Error('test wallet: the multi-signed request has expired');
  return { payload: decoded, signatures: checked, ...(verifierInfo !== undefined ? { verifierInfo } : {}) };
}
