import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { fetchHandlerTarget } from '@vp-authorizer/testing/contracts';
import type { HttpTarget, MountedHttpTarget } from '@vp-authorizer/testing';
import { express4Target, express5Target } from '../../packages/express/test/express-target.js';
import { fastifyTarget } from '../../packages/fastify/test/fastify-target.js';
import { honoTarget } from '../../packages/hono/test/hono-target.js';
import { koaTarget } from '../../packages/koa/test/koa-target.js';

const PREFIX = '/authz';
const KEY = 'configured-onerror-key-01';

const targets: [string, HttpTarget][] = [
  ['Express 5', express5Target()],
  ['Express 4', express4Target()],
  ['Hono 4', honoTarget()],
  ['Koa 3', koaTarget()],
  ['Fastify 5', fastifyTarget()],
  ['fetch handler', fetchHandlerTarget()],
];

/**
 * `createAuthorizer({ onError })` receives every unexpected error once, whichever way the request
 * came in: the adapters pass their own reporter to serve() (for the framework's error path), and
 * that is in addition to the configured one, never instead of it.
 */
for (const [name, target] of targets) {
  describe(`${name}: the authorizer's configured onError on an unexpected failure`, () => {
    let mounted: MountedHttpTarget;
    let authorizer: Authorizer;
    const reported: unknown[] = [];
    const bug = new Error('store bug');
    beforeAll(async () => {
      mounted = await target.start({ prefix: PREFIX, onFrameworkError: () => undefined });
      const { signing } = await generateDevSigningKey();
      const store = memoryStore();
      authorizer = createAuthorizer({
        publicBaseUrl: `${mounted.origin}${PREFIX}`,
        basePath: PREFIX,
        sweepIntervalMs: 0,
        store: Object.assign(Object.create(store) as typeof store, { create: async () => Promise.reject(bug) }),
        onError: (error) => reported.push(error),
        instances: [{ id: 'main', apiKeys: [KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
      });
      mounted.attach(authorizer);
    });
    afterAll(async () => {
      await authorizer?.close();
      await mounted?.close();
    });

    it('is called once', async () => {
      const body = { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } };
      const res = await fetch(`${mounted.origin}${PREFIX}/openid4/vp/v1_0/authorizations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(500);
      expect(reported).toEqual([bug]);
    });
  });
}
