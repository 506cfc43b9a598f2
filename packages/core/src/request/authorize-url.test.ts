import { describe, expect, it } from 'vitest';
import { buildAuthorizeUrl } from './authorize-url.js';

const p = { clientId: 'x509_hash:abc', requestUri: 'https://v.example/openid4/vp/v1_0/authorizations/id1/jwt' };
const query = 'client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fv.example%2Fopenid4%2Fvp%2Fv1_0%2Fauthorizations%2Fid1%2Fjwt&request_uri_method=post';

describe('buildAuthorizeUrl', () => {
  it('turns a bare scheme into scheme://?', () => {
    expect(buildAuthorizeUrl('openid4vp:', p)).toBe(`openid4vp://?${query}`);
    expect(buildAuthorizeUrl('haip-vp://', p)).toBe(`haip-vp://?${query}`);
  });

  it('appends with ? or & depending on the endpoint', () => {
    expect(buildAuthorizeUrl('https://wallet.example/authorize', p)).toBe(`https://wallet.example/authorize?${query}`);
    expect(buildAuthorizeUrl('https://wallet.example/authorize?x=1', p)).toBe(`https://wallet.example/authorize?x=1&${query}`);
    expect(buildAuthorizeUrl('https://wallet.example/authorize?', p)).toBe(`https://wallet.example/authorize?${query}`);
  });

  it('leaves request_uri_method out when the request object is served by GET only (GET is the default)', () => {
    expect(buildAuthorizeUrl('openid4vp:', { ...p, requestUriMethod: 'get' })).toBe(`openid4vp://?${query.replace('&request_uri_method=post', '')}`);
  });
});
