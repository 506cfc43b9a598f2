import type { ParsedSdJwt } from '@vp-authorizer/core';
import { localValidator } from '@vp-authorizer/local';
import { createListSigner, GRANTED, WITHDRAWN, type ListSigner } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists, type TrustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { loteDocument, signLote, type LoteServiceSpec } from './__fixtures__/signed-lote.js';
import { tempFolder } from './__fixtures__/temp-files.js';

// A did:key (Ed25519) and a did:web, as a LoTE service's digital identity names them in OtherIds.
const ISSUER = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER = 'did:web:other.example';
const DIPLOMA = 'https://credentials.example/diploma';
const DAY = 86_400_000;
const since = new Date(Date.now() - DAY);

let signer: ListSigner;
beforeAll(async () => {
  signer = await createListSigner('LoTE signer', 'ec');
});

async function loaded(services: LoteServiceSpec[], clock?: { now(): number }): Promise<TrustLists> {
  const path = tempFolder().write('eaa.jws', await signLote(loteDocument(services), signer));
  const lists = trustLists({ sources: [`lote:${path}`], signers: [signer.pem], ...(clock ? { clock } : {}) });
  await lists.ready();
  expect(lists.status()[0]).toMatchObject({ kind: 'lote', state: 'ready' });
  return lists;
}

/** An SD-JWT VC issued under `did`, its key taken from that DID's document, as the format policy hands it to the validator. */
function sdJwtIssuedBy(did: string): ParsedSdJwt {
  const jwt = (header: Record<string, string>, payload: Record<string, string>) => ({ compact: 'h.p.s', header, payload });
  return {
    path: ['c', 0],
    queryId: 'c',
    index: 0,
    format: 'dc+sd-jwt',
    kind: 'sd-jwt',
    raw: 'issuer~',
    issuerJwt: jwt({ alg: 'EdDSA', typ: 'dc+sd-jwt', kid: `${did}#${did.slice('did:key:'.length)}` }, { iss: did, vct: DIPLOMA }),
    disclosures: [],
    claims: { iss: did, vct: DIPLOMA },
    vct: DIPLOMA,
  };
}

async function trustedIssuerPolicy(lists: TrustLists, presentation: ParsedSdJwt) {
  const validator = localValidator({ issuerAnchors: lists });
  const query = { type: 'DCQL' as const, dcql: { credentials: [{ id: 'c', format: 'dc+sd-jwt', require_cryptographic_holder_binding: false }] } };
  const results = await validator.validate({ authorizationId: 'a', query, presentations: [presentation] }, { signal: new AbortController().signal });
  return results.find((r) => r.policy === 'trustedIssuer');
}

describe('a LoTE whose services name DIDs (ServiceDigitalIdentity OtherIds)', () => {
  it('lists a DID a granted service of a vouching type names, and no other DID', async () => {
    const lists = await loaded([{ type: SERVICE_TYPES.eaaIssuance, otherIds: ['urn:example:not-a-did', ISSUER], status: { uri: GRANTED, since } }]);
    expect(await lists.issuerDid({ did: ISSUER, credentialTypes: [DIPLOMA] })).toEqual({ listed: true });
    expect(await lists.issuerDid({ did: OTHER, credentialTypes: [DIPLOMA] })).toMatchObject({ listed: false, refusal: { code: 'trusted_issuer.untrusted', detail: 'no loaded trusted list names the issuer' } });
    // An EAA provider's DID does not vouch for a PID (the default vouching keeps PIDs to PID providers).
    expect(await lists.issuerDid({ did: ISSUER, credentialTypes: ['urn:eudi:pid:1'] })).toMatchObject({ listed: false, refusal: { code: 'trusted_issuer.untrusted', detail: expect.stringContaining('only for service type') } });
    // A DID only ever matches exactly: no prefix, no fragment.
    expect((await lists.issuerDid({ did: `${ISSUER}#key-1`, credentialTypes: [DIPLOMA] })).listed).toBe(false);
  });

  it('refuses a DID whose service is withdrawn, naming the withdrawal', async () => {
    const lists = await loaded([{ type: SERVICE_TYPES.eaaIssuance, otherIds: [ISSUER], status: { uri: WITHDRAWN, since } }]);
    expect(await lists.issuerDid({ did: ISSUER, credentialTypes: [DIPLOMA] })).toMatchObject({ listed: false, refusal: { code: 'trusted_issuer.withdrawn', detail: expect.stringContaining(WITHDRAWN) } });
  });

  it('refuses a DID from a list past NextUpdate plus grace', async () => {
    let now = Date.now();
    const lists = await loaded([{ type: SERVICE_TYPES.eaaIssuance, otherIds: [ISSUER], status: { uri: GRANTED, since } }], { now: () => now });
    expect((await lists.issuerDid({ did: ISSUER, credentialTypes: [DIPLOMA] })).listed).toBe(true);
    now += 9 * DAY;
    expect(await lists.issuerDid({ did: ISSUER, credentialTypes: [DIPLOMA] })).toMatchObject({ listed: false, refusal: { code: 'trusted_issuer.list_stale' } });
    lists.close();
  });

  it('through localValidator: a credential issued under the listed did:key passes by the list rule; withdrawn, it fails', async () => {
    const granted = await loaded([{ type: SERVICE_TYPES.eaaIssuance, otherIds: [ISSUER], status: { uri: GRANTED, since } }]);
    const passed = await trustedIssuerPolicy(granted, sdJwtIssuedBy(ISSUER));
    expect(passed?.error).toBeUndefined();
    expect(passed?.data).toEqual({ trusted: true, matches: [{ credential: 0, rule: 'list', issuer: ISSUER }] });

    const withdrawn = await loaded([{ type: SERVICE_TYPES.eaaIssuance, otherIds: [ISSUER], status: { uri: WITHDRAWN, since } }]);
    expect((await trustedIssuerPolicy(withdrawn, sdJwtIssuedBy(ISSUER)))?.error).toMatchObject({ code: 'trusted_issuer.withdrawn' });
  });
});
