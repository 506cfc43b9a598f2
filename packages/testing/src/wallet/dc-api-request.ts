import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { openid4vcCallbacks } from './openid4vc-callbacks.js';
import { allowInsecureUrlsForTests, checkRequestObjectHeader, toReceivedRequest } from './receive-request.js';
import type { ReceivedRequest } from './received-request.js';

/** The `digitalCredentialGetRequest` of a DC API authorization (one entry of `digital.requests`). */
export interface DcApiGetRequest {
  protocol: string;
  data: Record<string, unknown>;
}

/**
 * Reads a DC API request as the browser hands it to a wallet. Unsigned: `data` holds the
 * parameters. Signed: `data.request` is a JAR, verified like a redirect-flow request object;
 * the library also checks that `expected_origins` contains the origin.
 */
export async function receiveDcApiRequest(getRequest: DcApiGetRequest, origin: string, options: { verifierTrustAnchors?: string[] } = {}): Promise<ReceivedRequest> {
  allowInsecureUrlsForTests();
  let params: Record<string, unknown>;
  let signed: { requestObject: string; x5c: string[] } | undefined;
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
  } else {
    throw new Error(`test wallet: DC API protocol ${getRequest.protocol} is not supported`);
  }
  const request = toReceivedRequest(params);
  if (request.responseMode !== 'dc_api' && request.responseMode !== 'dc_api.jwt') throw new Error(`test wallet: DC API request with response_mode ${request.responseMode}`);
  return { ...request, origin, ...(signed ?? {}) };
}
