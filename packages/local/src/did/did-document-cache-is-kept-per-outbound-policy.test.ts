// One httpDidResolver may serve verifiers (instances) with different outbound-fetch policies: a
// development instance allowed to reach a resolver on a private address, a production one that is
// not. A document cached for the looser policy must not answer the stricter one: that would hand it
// a document from a destination its policy refuses.
import { generateKeyPairSync } from 'node:crypto';
import { outboundFetchPolicy } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import { exportJWK } from 'jose';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUniversalResolver, type UniversalResolverServer } from '../__fixtures__/universal-resolver-server.js';
import { httpDidResolver } from './http-did-resolver.js';

let server: UniversalResolverServer;
beforeAll(async () => {
  server = await startUniversalResolver();
});
afterAll(async () => server.close());

const didMethods = v.parse(didMethodsConfigSchema, { methods: { ethr: { enabled: true } } });

describe('httpDidResolver cache', () => {
  it('a document resolved under a looser outbound policy is not served to a stricter one', async () => {
    const did = 'did:ethr:0x1:0xcached';
    server.set(did, { document: { id: did, verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: await exportJWK(generateKeyPairSync('ed25519').publicKey) }] } });
    const resolver = httpDidResolver({ url: server.url, timeoutMs: 1_000, cacheTtlMs: 60_000 });
    // The resolver runs on loopback: only the escape hatch reaches it.
    const loose = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true });
    const strict = outboundFetchPolicy();

    expect((await resolver.resolve(did, { didMethods, outbound: loose })).id).toBe(did);
    await expect(resolver.resolve(did, { didMethods, outbound: strict })).rejects.toMatchObject({ code: 'did.resolution_failed' });
    // The looser policy still gets its cached document (one request to the resolver in all).
    const requests = server.requests.length;
    expect((await resolver.resolve(did, { didMethods, outbound: loose })).id).toBe(did);
    expect(server.requests.length).toBe(requests);
    // Another policy object with the same settings is another policy: it asks for itself.
    expect((await resolver.resolve(did, { didMethods, outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }) })).id).toBe(did);
    expect(server.requests.length).toBe(requests + 1);
  });
});
