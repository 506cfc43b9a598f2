import * as v from 'valibot';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';

const publicJwkSchema = v.object({
  kty: v.string(),
  crv: v.optional(v.string()),
  x: v.optional(v.string()),
  y: v.optional(v.string()),
  kid: v.optional(v.string()),
  alg: v.optional(v.string()),
  use: v.optional(v.string()),
  x5c: v.optional(v.array(v.string())),
});
export const jwksSchema = v.pipe(v.object({ keys: v.array(publicJwkSchema) }), v.title('Jwks'));
export type Jwks = v.InferOutput<typeof jwksSchema>;

/**
 * Public request-signing keys of every signing identity of every instance (never private parts),
 * each key once: two identities with the same leaf certificate (one key under two client id
 * prefixes) share a `kid`.
 */
export async function jwks(ctx: AuthorizerContext): Promise<Jwks> {
  const settled = await Promise.allSettled(
    [...ctx.instances.values()].map(async (instance) =>
      (await instance.signingIdentities()).map(({ material }) => {
        const { kty, crv, x, y } = material.publicJwk;
        return { kty: kty!, crv, x, y, kid: material.x509Hash, alg: material.alg, use: 'sig', x5c: [...material.x5c] };
      }),
    ),
  );
  // One instance with a broken key must not take the endpoint down for the others.
  const keys = settled.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  const seen = new Set<string>();
  return { keys: keys.filter((key) => !seen.has(key.kid) && seen.add(key.kid)) };
}

export const jwksEndpoint = defineEndpoint({
  operationId: 'getJwks',
  name: 'metadata.jwks',
  method: 'GET',
  path: '/openid4/vp/v1_0/jwks',
  audience: 'public',
  summary: 'Public request-signing keys of every instance (every signing identity)',
  responses: {
    200: { description: 'A JWK set (public parts only).', contentType: 'application/json', schema: jwksSchema },
  },
  run: ({ ctx }) => json(200, jwks(ctx)),
});
