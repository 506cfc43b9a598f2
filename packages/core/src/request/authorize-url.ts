/**
 * `authorizeUrl` = endpoint + `client_id`, `request_uri`, and `request_uri_method=post` unless the
 * instance serves the request object by GET only (then it is left out: GET is the default). A bare scheme
 * ("openid4vp:") becomes "openid4vp://?…"; an endpoint with a query gets "&"; otherwise "?".
 */
export function buildAuthorizeUrl(endpoint: string, params: { clientId: string; requestUri: string; requestUriMethod?: 'get' | 'post' }): string {
  const query = new URLSearchParams({
    client_id: params.clientId,
    request_uri: params.requestUri,
    ...((params.requestUriMethod ?? 'post') === 'post' ? { request_uri_method: 'post' } : {}),
  }).toString();
  let base = endpoint;
  if (/^[a-z][a-z0-9+.-]*:$/i.test(base)) base = `${base}//`;
  if (base.endsWith('?') || base.endsWith('&')) return `${base}${query}`;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}
