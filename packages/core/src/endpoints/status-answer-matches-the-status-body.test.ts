import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import { authorizationStatusSchema } from './shared-schemas.js';
import { statusAnswer, statusOf, statusResponseSchema } from './authorization-status.js';

/** A record as the store returns it (only status and the claim matter to the status body). */
function makeTestRecord(): AuthorizationRecord {
  return {
    id: 'a1',
    instanceId: 'i1',
    version: 1,
    status: 'pending',
    createdAt: 1_800_000_000_000,
    updatedAt: 1_800_000_000_000,
    expiresAt: 1_800_000_060_000,
    request: { query: { type: 'DCQL', dcql: { credentials: [] } }, responseMode: 'direct_post.jwt', responseType: 'vp_token', nonce: 'n' },
    policyResults: [],
    credentials: [],
  };
}

const NOW = 1_700_000_001_000;

describe('statusAnswer (the status route)', () => {
  it('answers every status, claimed or not, with exactly the serialised status body', () => {
    let answered = 0;
    for (const status of authorizationStatusSchema.options) {
      for (const responseClaimedAt of [undefined, 1_700_000_000_000]) {
        const record: AuthorizationRecord = { ...makeTestRecord(), status, ...(responseClaimedAt === undefined ? {} : { responseClaimedAt, leaseExpiresAt: responseClaimedAt + 5_000 }) };
        const answer = statusAnswer(record, NOW);
        expect(answer.status).toBe(200);
        expect(answer.headers).toEqual([
          ['content-type', 'application/json; charset=utf-8'],
          ['cache-control', 'no-store'],
        ]);
        expect(answer.body).toBe(JSON.stringify(statusOf(record, NOW)));
        expect(v.is(statusResponseSchema, JSON.parse(answer.body!))).toBe(true);
        answered++;
      }
    }
    expect(answered).toBe(12);
    // Terminal records never report processing.
    expect(JSON.parse(statusAnswer({ ...makeTestRecord(), status: 'authorized', responseClaimedAt: 1, leaseExpiresAt: NOW + 1 } as AuthorizationRecord, NOW).body!)).toEqual({ status: 'authorized' });
  });

  it('serialises a status it does not know as it is, and answers each call with its own header list', () => {
    const unknown = { ...makeTestRecord(), status: 'archived' } as unknown as AuthorizationRecord;
    expect(statusAnswer(unknown, NOW).body).toBe('{"status":"archived"}');
    const record = { ...makeTestRecord(), status: 'pending' } as AuthorizationRecord;
    expect(statusAnswer(record, NOW).headers).not.toBe(statusAnswer(record, NOW).headers);
  });
});
