import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { fetchHandlerTarget } from '@vp-authorizer/testing/contracts';
import type { HttpTarget, MountedHttpTarget } from '@vp-authorizer/testing';
import { express4Target, express5Target } from '../../packages/express/test/express-target.js';
import { fastifyTarget } from '../../packages/fastify/test/fastify-target.js';
import { honoTarget } from '../../packages/hono/test/hono-target.js';
import { koaTarget } from '../../packages/koa/test/koa-target.js';

const PREFIX = '/authz';
const LIMIT = 16 * 1024;
const WALLET_PATH = '/openid4/vp/v1_0/some-authorization/direct_post';

const targets: [string, HttpTarget, { hostParsers: boolean }][] = [
  ['Express 5', express5Target(), { hostParsers: true }],
  ['Express 4', express4Target(), { hostParsers: true }],
  ['Hono 4', honoTarget(), { hostParsers: true }],
  ['Koa 3', koaTarget(), { hostParsers: true }],
  ['Fastify 5', fastifyTarget(), { hostParsers: true }],
  ['fetch handler', fetchHandlerTarget(), { hostParsers: false }],
];

/** A form body of about `bytes`, streamed (no Content-Length) or as one string (declared length). */
function overLimitForm(bytes: number, streamed: boolean): RequestInit {
  const text = `vp_token=${'a'.repeat(bytes)}&state=s`;
  const encoded = new TextEncoder().encode(text);
  const body = streamed ? new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(encoded), c.close()) }) : text;
  return { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as RequestInit;
}

// Regression: a 413 on a wallet route answered in the relying-party format under Express, Hono
// and Koa (the adapters rendered their own refusals); every way of serving now answers OAuth-style.
for (const [name, target, { hostParsers }] of targets) {
  for (const hostBodyParsers of hostParsers ? [false, true] : [false]) {
    describe(`${name}${hostBodyParsers ? ' with host body parsers' : ''}: a body over the limit on a wallet route, mounted under ${PREFIX}`, () => {
      let mounted: MountedHttpTarget;
      let authorizer: Authorizer;
      beforeAll(async () => {
        mounted = await target.start({ prefix: PREFIX, hostBodyParsers });
        const { signing } = await generateDevSigningKey();
        authorizer = createAuthorizer({
          publicBaseUrl: `${mounted.origin}${PREFIX}`,
          basePath: PREFIX,
          bodyLimitBytes: LIMIT,
          sweepIntervalMs: 0,
          instances: [{ id: 'main', apiKeys: ['wallet-413-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
        });
        mounted.attach(authorizer);
      });
      afterAll(async () => {
        await authorizer?.close();
        await mounted?.close();
      });

      for (const streamed of [false, true]) {
        it(`answers 413 in the wallet (OAuth) error format (${streamed ? 'chunked' : 'declared length'})`, async () => {
          const res = await fetch(`${mounted.origin}${PREFIX}${WALLET_PATH}`, overLimitForm(LIMIT * 2, streamed));
          expect(res.status).toBe(413);
          const body = (await res.json()) as Record<string, unknown>;
          expect(body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
        });
      }

      it('still answers 413 in the relying-party format on an RP route', async () => {
        const res = await fetch(`${mounted.origin}${PREFIX}/openid4/vp/v1_0/authorizations`, overLimitForm(LIMIT * 2, false));
        expect(res.status).toBe(413);
        expect(await res.json()).toMatchObject({ type: 'request.body_too_large', status: 413 });
      });
    });
  }
}
