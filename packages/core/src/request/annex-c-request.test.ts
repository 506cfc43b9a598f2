import { Decoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { sharedTestdataJson } from '../crypto/__fixtures__/shared-testdata.js';
import { coseKeyToP256Jwk } from '../crypto/p256-cose-key.js';
import type { DcqlQuery } from '../model/authorization-record.js';
import { annexCQueryIssues, buildAnnexCRequest, encodeDeviceRequest, encodeEncryptionInfo } from './annex-c-request.js';

// Byte layouts checked against walt-id/waltid-identity's published Annex C vectors
// (waltid-18013-7-verifier test resources ANNEXC-DETERMINISTIC-001 and ANNEXC-REAL-001, the latter
// captured from verifier.multipaz.org; shared/testdata/annexc-vectors.json).
interface Vector { deviceRequest: string; encryptionInfo: string }
const vectors = sharedTestdataJson<{ annexc_deterministic: Vector; annexc_multipaz_capture: Vector }>('annexc-vectors.json');
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const decode = (b64: string): unknown => decoder.decode(Buffer.from(b64, 'base64url'));

const ageOver18: DcqlQuery = {
  credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'] }] }],
};

describe('Annex C request encoding', () => {
  it('encodes the DeviceRequest of the deterministic vector byte for byte', async () => {
    expect(await encodeDeviceRequest(ageOver18)).toBe(vectors.annexc_deterministic.deviceRequest);
  });

  it('encodes the EncryptionInfo of both vectors byte for byte from their nonce and recipient key', () => {
    for (const vector of [vectors.annexc_deterministic, vectors.annexc_multipaz_capture]) {
      const [, info] = decode(vector.encryptionInfo) as [string, Map<string, unknown>];
      expect(encodeEncryptionInfo(info.get('nonce') as Uint8Array, coseKeyToP256Jwk(info.get('recipientPublicKey')))).toBe(vector.encryptionInfo);
    }
  });

  it('asks one DocRequest per credential query, in order, with intentToRetain from the query else false', async () => {
    const dcql: DcqlQuery = {
      credentials: [
        { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'], intent_to_retain: true }, { path: ['org.iso.18013.5.1', 'portrait'] }, { path: ['org.iso.18013.5.1.aamva', 'DHS_compliance'], intent_to_retain: false }] },
        { id: 'pid', format: 'mso_mdoc', meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' }, claims: [{ path: ['eu.europa.ec.eudi.pid.1', 'birth_date'] }] },
      ],
    };
    const request = decode(await encodeDeviceRequest(dcql)) as Map<string, unknown>;
    expect(request.get('version')).toBe('1.0');
    const docRequests = request.get('docRequests') as Map<string, unknown>[];
    const items = docRequests.map((d) => {
      const tagged = d.get('itemsRequest') as Tag;
      expect(tagged.tag).toBe(24);
      return decoder.decode(tagged.value as Uint8Array) as Map<string, unknown>;
    });
    expect(items.map((i) => i.get('docType'))).toEqual(['org.iso.18013.5.1.mDL', 'eu.europa.ec.eudi.pid.1']);
    expect(items[0]!.get('nameSpaces')).toEqual(new Map([
      ['org.iso.18013.5.1', new Map([['family_name', true], ['portrait', false]])],
      ['org.iso.18013.5.1.aamva', new Map([['DHS_compliance', false]])],
    ]));
    expect(docRequests.every((d) => !d.has('readerAuth'))).toBe(true);
  });

  it('draws a fresh 16-byte nonce and P-256 recipient key per request, and keeps the private part out of what it hands out', async () => {
    const [a, b] = await Promise.all([buildAnnexCRequest(ageOver18), buildAnnexCRequest(ageOver18)]);
    expect(Buffer.from(a.nonce, 'base64url')).toHaveLength(16);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.recipient.privateJwk.d).not.toBe(b.recipient.privateJwk.d);
    const [label, info] = decode(a.encryptionInfo) as [string, Map<string, unknown>];
    expect(label).toBe('dcapi');
    expect(Buffer.from(info.get('nonce') as Uint8Array).toString('base64url')).toBe(a.nonce);
    expect(coseKeyToP256Jwk(info.get('recipientPublicKey'))).toEqual({ kty: 'EC', crv: 'P-256', x: a.recipient.privateJwk.x, y: a.recipient.privateJwk.y });
    expect(a.recipient.encryptionInfo).toBe(a.encryptionInfo);
    expect(`${a.deviceRequest}${a.encryptionInfo}`).not.toContain(a.recipient.privateJwk.d!);
  });

  it('names every part of a DCQL query a DeviceRequest cannot ask for', () => {
    const issues = annexCQueryIssues({
      credentials: [
        { id: 'sd', format: 'dc+sd-jwt', meta: { vct_values: ['x'] }, claims: [{ path: ['a'] }] },
        { id: 'm', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claim_sets: [['a']], claims: [{ id: 'a', path: ['org.iso.18013.5.1', 'x', 'y'] }] },
        { id: 'n', format: 'mso_mdoc' },
      ],
    }, '/query/dcql');
    expect(issues.map((i) => i.pointer)).toEqual([
      '/query/dcql/credentials/0/format',
      '/query/dcql/credentials/0/meta/doctype_value',
      '/query/dcql/credentials/0/claims/0/path',
      '/query/dcql/credentials/1/claims/0/path',
      '/query/dcql/credentials/1/claim_sets',
      '/query/dcql/credentials/2/meta/doctype_value',
      '/query/dcql/credentials/2/claims',
    ]);
    expect(annexCQueryIssues(ageOver18, '/query/dcql')).toEqual([]);
  });
});
