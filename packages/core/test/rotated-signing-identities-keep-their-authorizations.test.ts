// Rotation: a new primary signs new requests; the identity rotated out (retired) stays in /jwks and
// still signs the request objects of authorizations created under it, until it is removed.
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DCQL_SD_JWT } from './__fixtures__/test-authorizer.js';

const body = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } } as const;
const der = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

describe('rotating the signing identity', () => {
  it('keeps authorizations created under the old identity servable, publishes both, signs new ones with the new; removing the old one refuses its leftovers', async () => {
    const oldKey = await generateDevSigningKey({ dnsName: 'old.example' });
    const newKey = await generateDevSigningKey({ dnsName: 'new.example' });
    const store = memoryStore({ sweepIntervalMs: 0 });
    const instance = (signing: unknown) => ({ id: 'main', apiKeys: ['k-1234567890'], signing: signing as never, validator: passThroughValidator(), verifier: passThroughVerifier() });
    const before = createAuthorizer({ publicBaseUrl: 'https://verifier.example', sweepIntervalMs: 0, store, instances: [instance(oldKey.signing)] });
    const pending = (await before.createAuthorization('main', body)) as { authorizationId: string };
    await before.close();

    // Every process restarts with the new identity first and the old one retired.
    const during = createAuthorizer({ publicBaseUrl: 'https://verifier.example', sweepIntervalMs: 0, store, instances: [instance([newKey.signing, { ...oldKey.signing, retired: true }])] });
    try {
      expect(decodeProtectedHeader(await during.getRequestObject(pending.authorizationId)).x5c).toEqual([der(oldKey.leafCertificatePem)]);
      const fresh = (await during.createAuthorization('main', body)) as { authorizationId: string };
      expect(decodeProtectedHeader(await during.getRequestObject(fresh.authorizationId)).x5c).toEqual([der(newKey.leafCertificatePem)]);
      const jwks = (await (await during.fetch(new Request('https://verifier.example/openid4/vp/v1_0/jwks'))).json()) as { keys: { x5c: string[] }[] };
      expect(jwks.keys.map((k) => k.x5c[0])).toEqual([der(newKey.leafCertificatePem), der(oldKey.leafCertificatePem)]);
      const multi = (await during.createAuthorization('main', { ...body, responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-multisigned', expectedOrigins: ['https://rp.example'] })) as {
        digitalCredentialGetRequest: { data: { signatures: unknown[] } };
      };
      expect(multi.digitalCredentialGetRequest.data.signatures).toHaveLength(1);
    } finally {
      await during.close();
    }

    const leftover = createAuthorizer({ publicBaseUrl: 'https://verifier.example', sweepIntervalMs: 0, store, instances: [instance(newKey.signing)] });
    try {
      await expect(leftover.getRequestObject(pending.authorizationId)).rejects.toMatchObject({ code: 'signing.identity_removed', status: 400 });
    } finally {
      await leftover.close();
      store.close();
    }
  });

  it('refuses a retired primary at construction, naming the fix', async () => {
    const key = await generateDevSigningKey();
    let error: unknown;
    try {
      createAuthorizer({ publicBaseUrl: 'https://verifier.example', sweepIntervalMs: 0, instances: [{ id: 'main', apiKeys: ['k-1234567890'], signing: { ...key.signing, retired: true }, validator: passThroughValidator(), verifier: passThroughVerifier() }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([{ path: 'instances.0.signing.retired', message: 'the primary identity signs new requests and cannot be retired: put the new identity first' }]);
  });
});
