import { Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { CborBudget } from '../shared/cbor-budget.js';
import { parseMdoc } from './parse-mdoc.js';
import { buildDeviceResponse, cbor, encodeCbor, failure } from '../shared/test-fixtures.js';
import { sharedItemDeviceResponse } from '../shared/hostile-cbor.test-support.js';

const ref = { path: ['mdl', 0], queryId: 'mdl', index: 0, format: 'mso_mdoc' };
const NS = 'org.iso.18013.5.1';

describe('parseMdoc', () => {
  it('decodes documents and converts element values to JSON', () => {
    const portrait = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
    const raw = buildDeviceResponse([
      {
        docType: 'org.iso.18013.5.1.mDL',
        elements: [
          { namespace: NS, identifier: 'family_name', value: 'Mustermann' },
          { namespace: NS, identifier: 'birth_date', value: new Tag('1971-09-01', 1004) },
          { namespace: NS, identifier: 'issue_date', value: new Tag('2024-01-01T10:00:00Z', 0) },
          { namespace: NS, identifier: 'portrait', value: portrait },
          { namespace: NS, identifier: 'age_over_18', value: true },
          { namespace: NS, identifier: 'driving_privileges', value: [new Map<string, unknown>([['vehicle_category_code', 'B'], ['issue_date', new Tag('2020-01-01', 1004)]])] },
          { namespace: 'org.example.ext', identifier: 'score', value: 7 },
        ],
      },
    ]);
    const parsed = parseMdoc(raw, ref);
    expect(parsed).toMatchObject({ kind: 'mdoc', raw, version: '1.0', status: 0, path: ['mdl', 0], queryId: 'mdl', format: 'mso_mdoc' });
    expect(parsed.documents).toHaveLength(1);
    const doc = parsed.documents[0]!;
    expect(doc).toMatchObject({ docType: 'org.iso.18013.5.1.mDL', hasDeviceSignature: true, hasDeviceMac: false });
    expect(Object.keys(doc.nameSpaces)).toEqual([NS, 'org.example.ext']);
    const values = Object.fromEntries(doc.nameSpaces[NS]!.map((i) => [i.elementIdentifier, i.elementValue]));
    expect(values).toEqual({
      family_name: 'Mustermann',
      birth_date: '1971-09-01',
      issue_date: '2024-01-01T10:00:00.000Z',
      portrait: Buffer.from(portrait).toString('base64url'),
      age_over_18: true,
      driving_privileges: [{ vehicle_category_code: 'B', issue_date: '2020-01-01' }],
    });
    expect(doc.nameSpaces[NS]!.map((i) => i.digestID)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(doc.nameSpaces['org.example.ext']).toEqual([{ digestID: 6, elementIdentifier: 'score', elementValue: 7 }]);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
  });

  it('reports deviceMac and missing deviceSigned without failing', () => {
    const raw = buildDeviceResponse([
      { docType: 'a', elements: [], deviceAuth: 'deviceMac' },
      { docType: 'b', elements: [], deviceAuth: 'none' },
    ]);
    const parsed = parseMdoc(raw, ref);
    expect(parsed.documents.map((d) => [d.docType, d.hasDeviceSignature, d.hasDeviceMac])).toEqual([
      ['a', false, true],
      ['b', false, false],
    ]);
  });

  it('keeps a non-zero status for the verify policy to judge', () => {
    expect(parseMdoc(buildDeviceResponse([{ docType: 'a', elements: [] }], { status: 10 }), ref).status).toBe(10);
  });

  it('requires exactly one document under HAIP', () => {
    const two = buildDeviceResponse([{ docType: 'a', elements: [] }, { docType: 'b', elements: [] }]);
    expect(parseMdoc(two, ref).documents).toHaveLength(2);
    const error = failure(() => parseMdoc(two, ref, { profile: 'haip' }));
    expect(error.code).toBe('format.haip_violation');
    expect(error.path).toEqual(['mdl', 0]);
    expect(parseMdoc(buildDeviceResponse([{ docType: 'a', elements: [] }]), ref, { profile: 'haip' }).documents).toHaveLength(1);
  });

  const item = (m: Map<string, unknown>) => new Tag(cbor.encode(m), 24);
  const issuerAuth = [new Uint8Array([0xa1, 0x01, 0x26]), new Map(), new Uint8Array(1), new Uint8Array(64)];
  const doc = (extra: [string, unknown][] = [], issuerSigned: [string, unknown][] = [['issuerAuth', issuerAuth]]) =>
    new Map<string, unknown>([['docType', 'x'], ['issuerSigned', new Map(issuerSigned)], ...extra]);
  const response = (documents: unknown, more: [string, unknown][] = []) => encodeCbor(new Map<string, unknown>([['version', '1.0'], ['documents', documents], ['status', 0], ...more]));

  it.each([
    ['a non-string', 12],
    ['invalid base64url', '***'],
    ['bytes that are not CBOR', Buffer.from([0xff, 0xff]).toString('base64url')],
    ['a CBOR array root', encodeCbor([1, 2])],
    ['a missing version', encodeCbor(new Map<string, unknown>([['documents', [doc()]], ['status', 0]]))],
    ['a non-integer status', encodeCbor(new Map<string, unknown>([['version', '1.0'], ['documents', [doc()]], ['status', 'ok']]))],
    ['no documents', encodeCbor(new Map<string, unknown>([['version', '1.0'], ['status', 0]]))],
    ['an empty documents array', response([])],
    ['a document that is not a map', response([1])],
    ['a missing docType', response([new Map([['issuerSigned', new Map([['issuerAuth', issuerAuth]])]])])],
    ['a missing issuerAuth', response([doc([], [])])],
    ['an issuerAuth that is not COSE_Sign1', response([doc([], [['issuerAuth', [1, 2]]])])],
    ['a namespace item without tag 24', response([doc([], [['issuerAuth', issuerAuth], ['nameSpaces', new Map([['ns', [new Map([['digestID', 0]])]]])]])])],
    ['a namespace item without elementIdentifier', response([doc([], [['issuerAuth', issuerAuth], ['nameSpaces', new Map([['ns', [item(new Map<string, unknown>([['digestID', 0], ['elementValue', 1]]))]]])]])])],
    ['a namespace item with a negative digestID', response([doc([], [['issuerAuth', issuerAuth], ['nameSpaces', new Map([['ns', [item(new Map<string, unknown>([['digestID', -1], ['elementIdentifier', 'a'], ['elementValue', 1]]))]]])]])])],
    ['a deviceSigned without deviceAuth', response([doc([['deviceSigned', new Map()]])])],
  ])('rejects %s with format.mdoc_malformed', (_label, value) => {
    const error = failure(() => parseMdoc(value, ref));
    expect(error.code).toBe('format.mdoc_malformed');
    expect(error.path).toEqual(['mdl', 0]);
  });

  it('accepts a tagged COSE_Sign1 (tag 18) issuerAuth', () => {
    const parsed = parseMdoc(response([doc([], [['issuerAuth', new Tag(issuerAuth, 18)]])]), ref);
    expect(parsed.documents[0]?.nameSpaces).toEqual({});
  });

  it('refuses a DeviceResponse that references one IssuerSignedItem thousands of times (shared-reference amplification)', () => {
    // One 20 KB IssuerSignedItem marked shareable (tag 28) and 3,000 three-byte references to it
    // (tag 29): plain cbor-x resolves them to one object, which the parser then decoded 3,000 times.
    const raw = sharedItemDeviceResponse({ itemBytes: 20_000, references: 3_000 });
    const budget = new CborBudget();
    const error = failure(() => parseMdoc(raw, ref, { budget }));
    expect(error.code).toBe('format.mdoc_malformed');
    expect(error.path).toEqual(['mdl', 0]);
    // Refused while scanning the outer bytes: nothing was expanded.
    expect(budget.used).toBeLessThan(1_000);
  });

  it('refuses packed values and records (cbor-x extensions) in a DeviceResponse', () => {
    const root = Buffer.from(cbor.encode(new Map<string, unknown>([['version', '1.0'], ['documents', [doc()]], ['status', 0]])));
    // Wrap the whole response in cbor-x's packed-table tag 51 and its record tag 105.
    for (const prefix of ['d833', 'd869']) {
      const error = failure(() => parseMdoc(Buffer.concat([Buffer.from(prefix, 'hex'), root]).toString('base64url'), ref));
      expect(error.code).toBe('format.mdoc_malformed');
    }
  });

  it('charges nested IssuerSignedItem decoding and element conversion to the budget it is given', () => {
    const raw = buildDeviceResponse([{ docType: 'a', elements: [{ namespace: NS, identifier: 'list', value: new Array(1_000).fill(1) }] }]);
    const budget = new CborBudget();
    parseMdoc(raw, ref, { budget });
    // ≥ 1,000 items decoded from the embedded item plus ≥ 1,000 nodes converted.
    expect(budget.used).toBeGreaterThan(2_000);
    const error = failure(() => parseMdoc(raw, ref, { budget: new CborBudget(1_500) }));
    expect(error.code).toBe('format.cbor_budget_exceeded');
  });
});
