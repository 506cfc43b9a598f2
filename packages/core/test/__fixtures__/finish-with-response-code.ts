import { decodeJwt } from 'jose';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, type startAuthorizer } from './test-authorizer.js';

type Api = Awaited<ReturnType<typeof startAuthorizer>>['api'];

/** Run one redirect flow to its end; returns the authorization id and the response code the wallet was sent back with. */
export async function finishWithResponseCode(api: Api, createExtra: Record<string, unknown> = {}) {
  const { json } = await createDcqlAuthorization(api, createExtra);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt);
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  const post = await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
  const { redirect_uri } = (await post.json()) as { redirect_uri: string };
  return { id: json.authorizationId!, code: new URL(redirect_uri).searchParams.get('response_code')!, redirectUri: redirect_uri };
}

/** POST …/response-code/resolve with the given JSON body. */
export const resolveCode = (api: Api, body: Record<string, unknown>, key?: string) =>
  api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(key ? { key } : {}) });
