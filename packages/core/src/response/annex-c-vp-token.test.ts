import { Encoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../model/authorization-record.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { CborBudget } from '../formats/shared/cbor-budget.js';
import { annexCVpToken } from './annex-c-vp-token.js';

const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const MDL = 'org.iso.18013.5.1.mDL';
const MDL_NS = 'org.iso.18013.5.1';
const PID = 'eu.europa.ec.eudi.pid.1';

/** An IssuerSignedItemBytes (tag 24) for one element. */
const item = (element: string) => new Tag(cbor.encode(new Map<string, unknown>([['digestID', 0], ['random', new Uint8Array(16)], ['elementIdentifier', element], ['elementValue', 'x']])), 24);
/** A document of `docType` disclosing `elements` of one namespace (no signatures: this step only routes). */
const document = (docType: string, namespace: string, elements: string[]) =>
  new Map<string, unknown>([
    ['docType', docType],
    ['issuerSigned', new Map<string, unknown>([['nameSpaces', new Map([[namespace, elements.map(item)]])]])],
  ]);
const deviceResponse = (...documents: unknown[]) => cbor.encode(new Map<string, unknown>([['version', '1.0'], ['documents', documents], ['status', 0]]));
const docTypesOf = (b64: string): unknown[] =>
  ((cbor.decode(Buffer.from(b64, 'base64url')) as Map<string, unknown>).get('documents') as unknown[]).map((d) => (d instanceof Map ? d.get('docType') : d));

const query = (id: string, doctype: string, namespace: string, elements: string[]): DcqlQuery['credentials'][number] =>
  ({ id, format: 'mso_mdoc', meta: { doctype_value: doctype }, claims: elements.map((e) => ({ path: [namespace, e] })) }) as DcqlQuery['credentials'][number];

describe('annexCVpToken', () => {
  const mdl = query('mdl', MDL, MDL_NS, ['family_name']);
  const pid = query('pid', PID, PID, ['birth_date']);

  it('hands one query the bytes as received, without decoding them (the format policy decodes them once)', () => {
    const budget = new CborBudget();
    const one = deviceResponse(document(MDL, MDL_NS, ['family_name', 'portrait']));
    expect(annexCVpToken(one, { credentials: [mdl] }, budget)).toEqual({ mdl: [Buffer.from(one).toString('base64url')] });
    expect(budget.used).toBe(0);
    // Not even CBOR: left to the format policy, which rejects it with its own codes.
    expect(annexCVpToken(new Uint8Array([0xff]), { credentials: [mdl] })).toEqual({ mdl: ['_w'] });
  });

  it('splits documents by docType for several queries', () => {
    const both = deviceResponse(document(MDL, MDL_NS, ['family_name']), document(PID, PID, ['birth_date']));
    const token = annexCVpToken(both, { credentials: [mdl, pid] });
    expect(Object.keys(token).sort()).toEqual(['mdl', 'pid']);
    expect(docTypesOf(token.mdl![0]!)).toEqual([MDL]);
    expect(docTypesOf(token.pid![0]!)).toEqual([PID]);
  });

  it('routes a document of a docType no query names, and something that is no document, to the first query for the policies to reject', () => {
    const token = annexCVpToken(deviceResponse(document(PID, PID, ['birth_date']), document('org.example.loyalty', 'org.example', ['member_id']), 'not a document'), { credentials: [mdl, pid] });
    expect(docTypesOf(token.mdl![0]!)).toEqual(['org.example.loyalty', 'not a document']);
    expect(docTypesOf(token.pid![0]!)).toEqual([PID]);
  });

  it('refuses a DeviceResponse it must split that is not CBOR a wallet may send (400 annex_c_malformed)', () => {
    const refused = (() => {
      try {
        annexCVpToken(cbor.encode(new Tag(1, 28)), { credentials: [mdl, pid] });
      } catch (error) {
        return error instanceof AuthorizerError ? error.code : 'not an AuthorizerError';
      }
      return undefined;
    })();
    expect(refused).toBe('authorization.annex_c_malformed');
  });
});
