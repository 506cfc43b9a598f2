import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AuthorizationRecord, EncryptionKeyRecord } from '@vp-authorizer/core';

const randomId = (): string => randomBytes(16).toString('base64url');

let encryptionKey: EncryptionKeyRecord | undefined;

// One real P-256 key per process keeps records realistic in size without paying keygen per test.
function sampleEncryptionKey(): EncryptionKeyRecord {
  if (encryptionKey !== undefined) return encryptionKey;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomId();
  encryptionKey = {
    kid,
    alg: 'ECDH-ES',
    publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JsonWebKey), kid, alg: 'ECDH-ES', use: 'enc' },
    privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey,
  };
  return encryptionKey;
}

/**
 * A valid, realistic authorization record (DCQL query, encryption key, non-ASCII text, `null` in
 * a claim path) with a fresh random id and nonce. `overrides` replace top-level fields.
 */
export function makeTestRecord(overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord {
  const now = overrides.createdAt ?? Date.now();
  const id = overrides.id ?? randomId();
  return {
    id,
    instanceId: 'contract-instance',
    version: 1,
    status: 'created',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 300_000,
    request: {
      query: {
        type: 'DCQL',
        dcql: {
          credentials: [
            {
              id: 'pid',
              format: 'dc+sd-jwt',
              meta: { vct_values: ['urn:eudi:pid:1'] },
              claims: [{ path: ['given_name'] }, { path: ['address', 'street_address'] }, { path: ['nationalities', null] }],
            },
          ],
        },
      },
      responseMode: 'direct_post.jwt',
      responseType: 'vp_token',
      nonce: randomId(),
      state: randomId(),
      clientId: 'x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk',
      responseUri: `https://verifier.example/openid4/vp/v1_0/${id}/direct_post.jwt`,
      redirectUri: 'https://rp.example/callback?lang=fr&note=%C3%A9t%C3%A9',
      verifierInfo: [{ format: 'jwt', data: 'eyJ…', note: 'Grüße — 検証' }],
    },
    encryptionKey: sampleEncryptionKey(),
    policyResults: [],
    credentials: [],
    ...overrides,
  };
}
