import { buildSignedList, createListSigner, createTestCa, GRANTED, type ListSigner, type TestCa, WITHDRAWN } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists, type TrustListEvent } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const DAY = 86_400_000;
const pid = { purpose: 'credential' as const, credentialTypes: ['urn:eudi:pid:1'] };
const der = (ca: TestCa) => new Uint8Array(ca.der);

describe('a national trusted list', () => {
  let signer: ListSigner;
  let granted: TestCa;
  let withdrawn: TestCa;
  let qeaa: TestCa;
  let path: string;
  const now = Date.now();
  beforeAll(async () => {
    signer = await createListSigner('UT list signer');
    granted = await createTestCa('CN=Granted PID Provider CA');
    withdrawn = await createTestCa('CN=Withdrawn PID Provider CA');
    qeaa = await createTestCa('CN=QEAA Provider CA');
    path = tempFolder().write(
      'ut.xml',
      buildSignedList(
        {
          services: [
            { type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - 100 * DAY), certificates: [granted.x5c] },
            // Granted for 90 days, withdrawn 10 days ago.
            { type: SERVICE_TYPES.pidIssuance, status: WITHDRAWN, since: new Date(now - 10 * DAY), certificates: [withdrawn.x5c], history: [{ status: GRANTED, since: new Date(now - 100 * DAY) }] },
            { type: SERVICE_TYPES.qeaaIssuance, status: GRANTED, since: new Date(now - 100 * DAY), certificates: [qeaa.x5c] },
          ],
        },
        signer,
      ),
    );
  });

  it('yields the anchor of a granted PID provider for a PID', async () => {
    const lists = trustLists({ sources: [`tl:${path}`], signers: [signer.pem] });
    await lists.ready();
    expect(lists.isReady()).toBe(true);
    const answer = await lists.issuerAnchors({ ...pid, top: der(granted) });
    expect(answer.anchors).toEqual([expect.stringContaining('BEGIN CERTIFICATE')]);
  });

  it('refuses a withdrawn service with trusted_issuer.withdrawn', async () => {
    const lists = trustLists({ sources: [path], signers: [signer.pem] });
    await lists.ready();
    const answer = await lists.issuerAnchors({ ...pid, top: der(withdrawn) });
    expect(answer.anchors).toEqual([]);
    expect(answer.refusal?.code).toBe('trusted_issuer.withdrawn');
  });

  it("judged by issuance time, honours the service's history (granted when the credential was issued)", async () => {
    const lists = trustLists({ sources: [path], signers: [signer.pem], judgeBy: 'issuance' });
    await lists.ready();
    expect((await lists.issuerAnchors({ ...pid, top: der(withdrawn), issuedAt: now - 50 * DAY })).anchors).toHaveLength(1);
    expect((await lists.issuerAnchors({ ...pid, top: der(withdrawn), issuedAt: now - 5 * DAY })).refusal?.code).toBe('trusted_issuer.withdrawn');
  });

  it('does not let a QEAA provider vouch for a PID, but lets it vouch for other attestations', async () => {
    const lists = trustLists({ sources: [path], signers: [signer.pem] });
    await lists.ready();
    expect((await lists.issuerAnchors({ ...pid, top: der(qeaa) })).anchors).toEqual([]);
    expect((await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['urn:example:diploma'], top: der(qeaa) })).anchors).toHaveLength(1);
  });

  it('lets only revocation services vouch for status lists', async () => {
    const revocation = await createTestCa('CN=PID Revocation CA');
    const file = tempFolder().write(
      'revocation.xml',
      buildSignedList(
        {
          services: [
            { type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [granted.x5c] },
            { type: SERVICE_TYPES.pidRevocation, status: GRANTED, since: new Date(now - DAY), certificates: [revocation.x5c] },
          ],
        },
        signer,
      ),
    );
    const lists = trustLists({ sources: [file], signers: [signer.pem] });
    await lists.ready();
    const statusList = { purpose: 'status_list' as const, credentialTypes: [] };
    expect((await lists.issuerAnchors({ ...statusList, top: der(revocation) })).anchors).toHaveLength(1);
    expect((await lists.issuerAnchors({ ...statusList, top: der(granted) })).anchors).toEqual([]);
    expect((await lists.issuerAnchors({ ...pid, top: der(revocation) })).anchors).toEqual([]);
  });

  it('refuses the list when its signer is not the configured one, and reports it', async () => {
    const other = await createListSigner('Someone else');
    const events: TrustListEvent[] = [];
    const lists = trustLists({ sources: [path], signers: [other.pem], onEvent: (e) => events.push(e) });
    await lists.ready();
    expect(lists.isReady()).toBe(false);
    expect(lists.status()[0]).toMatchObject({ state: 'failed', error: { code: 'trust_list.unknown_signer' } });
    expect(events).toEqual([expect.objectContaining({ type: 'load_failed', code: 'trust_list.unknown_signer', keptLastGood: false })]);
    expect((await lists.issuerAnchors({ ...pid, top: der(granted) })).anchors).toEqual([]);
    lists.close();
  });

  it('refuses a list changed after signing', async () => {
    const bytes = buildSignedList({ services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [granted.x5c] }] }, signer)
      .toString('utf8')
      .replace(GRANTED, WITHDRAWN.replace('withdrawn', 'granted '));
    const lists = trustLists({ sources: [tempFolder().write('changed.xml', bytes)], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.code).toBe('trust_list.signature_invalid');
  });

  it('refuses an expired list at load, and fails closed once a loaded list is past NextUpdate plus grace', async () => {
    const clock = { at: now, now: () => clock.at };
    const expired = tempFolder().write('expired.xml', buildSignedList({ nextUpdate: new Date(now - 2 * DAY), services: [] }, signer));
    const refused = trustLists({ sources: [expired], signers: [signer.pem], clock });
    await refused.ready();
    expect(refused.status()[0]?.error?.code).toBe('trust_list.stale');

    const fresh = tempFolder().write('fresh.xml', buildSignedList({ nextUpdate: new Date(now + DAY), services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [granted.x5c] }] }, signer));
    const lists = trustLists({ sources: [fresh], signers: [signer.pem], clock, graceMs: 3_600_000 });
    await lists.ready();
    expect((await lists.issuerAnchors({ ...pid, top: der(granted) })).anchors).toHaveLength(1);
    clock.at = now + DAY + 2 * 3_600_000;
    expect(lists.isReady()).toBe(false);
    expect(lists.status()[0]?.state).toBe('stale');
    const answer = await lists.issuerAnchors({ ...pid, top: der(granted) });
    expect(answer).toMatchObject({ anchors: [], refusal: { code: 'trusted_issuer.list_stale' } });
    lists.close();
  });

  it('never uses a closed list (no NextUpdate)', async () => {
    const closed = tempFolder().write('closed.xml', buildSignedList({ nextUpdate: null, services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(now - DAY), certificates: [granted.x5c] }] }, signer));
    const lists = trustLists({ sources: [closed], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.code).toBe('trust_list.stale');
  });
});
