import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createAuthorizer, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { header, rawRequest } from '@vp-authorizer/testing';
import { authorizerPlugin } from '../src/index.js';
import { listenFastify } from './fastify-target.js';

const PREFIX = '/authz';
const WALLET_PATH = '/openid4/vp/v1_0/some-authorization/direct_post';

/**
 * Regression: a Content-Type that is not a media type (`foo`, `a b/c`) made Fastify refuse the
 * request before the plugin's catch-all parser ran, with Fastify's own 415 body
 * (`FST_ERR_CTP_INVALID_MEDIA_TYPE`): a wallet route answered in neither the OAuth format nor
 * the relying-party one. Same for QUERY without a Content-Type (FST_ERR_ROUTE_MISSING_CONTENT_TYPE,
 * a Fastify 400 where the core answers 405). (Fastify still runs the host's onError hooks first.)
 */
describe('Fastify 5: a malformed Content-Type on the plugin routes', () => {
  let authorizer: Authorizer;
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = Fastify();
    let current: Authorizer | undefined;
    app.register(authorizerPlugin, {
      prefix: PREFIX,
      authorizer: { get bodyLimitBytes() { return current!.bodyLimitBytes; }, handle: (request, options) => current!.handle(request, options) },
    });
    ({ origin, close } = await listenFastify(app));
    const { signing } = await generateDevSigningKey();
    authorizer = current = createAuthorizer({
      publicBaseUrl: `${origin}${PREFIX}`,
      basePath: PREFIX,
      sweepIntervalMs: 0,
      instances: [{ id: 'main', apiKeys: ['fastify-ctype-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
    });
  });
  afterAll(async () => {
    await authorizer?.close();
    await close?.();
  });

  it('answers the core\'s 405 in the OAuth format for QUERY without a Content-Type on a wallet route', async () => {
    const res = await rawRequest(`${origin}${PREFIX}${WALLET_PATH}`, { method: 'QUERY', headers: [['Content-Length', '7']], body: 'state=s' });
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('POST');
    expect(JSON.parse(res.body)).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  for (const contentType of ['foo', 'a b/c', '/', ';']) {
    it(`answers the core's 415 in the OAuth format on a wallet route (Content-Type: ${JSON.stringify(contentType)})`, async () => {
      const res = await fetch(`${origin}${PREFIX}${WALLET_PATH}`, { method: 'POST', headers: { 'content-type': contentType }, body: 'state=s' });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it(`answers the core's 415 in the relying-party format on an RP route (Content-Type: ${JSON.stringify(contentType)})`, async () => {
      const res = await fetch(`${origin}${PREFIX}/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { 'content-type': contentType, authorization: 'Bearer fastify-ctype-key-0001' }, body: '{}' });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ type: 'request.unsupported_media_type', status: 415 });
    });
  }
});
