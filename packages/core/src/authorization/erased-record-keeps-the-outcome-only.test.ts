import { describe, expect, it } from 'vitest';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import { erased } from './data-retention.js';

const record: AuthorizationRecord = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  instanceId: 'main',
  version: 4,
  status: 'rejected',
  createdAt: 1_000,
  updatedAt: 5_000,
  expiresAt: 301_000,
  request: {
    query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } },
    responseMode: 'direct_post.jwt',
    responseType: 'vp_token',
    nonce: 'nonce-1',
    state: 'state-1',
    walletMetadata: { vp_formats_supported: { 'dc+sd-jwt': {} }, holder: 'wallet-provided' },
  },
  encryptionKey: { kid: 'k', alg: 'ECDH-ES', publicJwk: { kid: 'k', alg: 'ECDH-ES' }, privateJwk: { d: 'secret' } },
  responseClaimedAt: 4_000,
  claimExpiresAt: 29_000,
  policyResults: [
    { path: ['pid', 0], policy: 'format', service: 'authorizer', data: { claims: { given_name: 'Ada', birthdate: '1815-12-10' } } },
    {
      path: ['pid', 0],
      policy: 'validate',
      service: 'validator',
      error: { type: 'https://vp-authorizer.dev/errors/x', title: 'Not accepted', code: 'credential_query.unsatisfied', status: 400, detail: 'birthdate 1815-12-10 is not after 2000-01-01', errors: [{ detail: 'Ada', pointer: '/given_name' }], external: { v: { type: 't', detail: 'Ada' } } },
    },
  ],
  credentials: [{ path: ['pid', 0], format: 'dc+sd-jwt', credentialType: 'pid', claims: { given_name: 'Ada' } }],
  error: { type: 'https://vp-authorizer.dev/errors/x', code: 'credential_query.unsatisfied', detail: 'birthdate 1815-12-10', reason: 'service.timeout', attempts: 2 },
  eraseAt: 60_000,
  firstReadAt: 6_000,
};

describe('an erased record', () => {
  const after = erased(record, 60_000);

  it('holds nothing the wallet disclosed: no claims, result data, problem details, wallet metadata or key', () => {
    const text = JSON.stringify(after);
    for (const disclosed of ['Ada', '1815-12-10', 'wallet-provided', 'secret']) expect(text).not.toContain(disclosed);
    expect(after.credentials).toEqual([]);
    expect(after.encryptionKey).toBeUndefined();
    expect(after.request.walletMetadata).toBeUndefined();
    expect(after.eraseAt).toBeUndefined();
  });

  it('keeps the outcome, the request as the relying party made it, every timing and each result\'s path, policy, service and error code', () => {
    expect(after).toMatchObject({ id: record.id, instanceId: 'main', status: 'rejected', createdAt: 1_000, updatedAt: 5_000, expiresAt: 301_000, responseClaimedAt: 4_000, claimExpiresAt: 29_000, firstReadAt: 6_000, erasedAt: 60_000 });
    expect(after.version).toBe(5);
    expect(after.request).toEqual({ query: record.request.query, responseMode: 'direct_post.jwt', responseType: 'vp_token', nonce: 'nonce-1', state: 'state-1' });
    expect(after.policyResults).toEqual([
      { path: ['pid', 0], policy: 'format', service: 'authorizer', data: {} },
      { path: ['pid', 0], policy: 'validate', service: 'validator', error: { type: 'https://vp-authorizer.dev/errors/x', title: 'Not accepted', code: 'credential_query.unsatisfied', status: 400 } },
    ]);
    expect(after.error).toEqual({ type: 'https://vp-authorizer.dev/errors/x', code: 'credential_query.unsatisfied', reason: 'service.timeout', attempts: 2 });
  });
});
