import { Encoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../model/authorization-record.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { annexCVpToken } from './annex-c-vp-token.js';

const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const MDL = 'org.iso.18013.5.1.mDL';
const MDL_NS = 'org.iso.18013.5.1';

/** An IssuerSignedItemBytes (tag 24) for one element. */
const item = (element: string) => new Tag(cbor.encode(new Map<string, unknown>([['digestID', 0], ['random', new Uint8Array(16)], ['elementIdentifier', element], ['elementValue', 'x']])), 24);
/** A document of `docType` disclosing `elements` of one namespace (no signatures: this step only routes and checks names). */
const document = (docType: string, namespace: string, elements: string[]) =>
  new Map<string, unknown>([
    ['docType', docType],
    ['issuerSigned', new Map<string, unknown>([['nameSpaces', new Map([[namespace, elements.map(item)]])]])],
  ]);
const deviceResponse = (...documents: unknown[]) => cbor.encode(new Map<string, unknown>([['version', '1.0'], ['documents', documents], ['status', 0]]));

const query = (id: string, doctype: string, namespace: string, elements: string[]): DcqlQuery['credentials'][number] =>
  ({ id, format: 'mso_mdoc', meta: { doctype_value: doctype }, claims: elements.map((e) => ({ path: [namespace, e] })) }) as DcqlQuery['credentials'][number];

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof AuthorizerError ? error.code : 'not an AuthorizerError';
  }
  return undefined;
};

describe('annexCVpToken', () => {
  const mdl = query('mdl', MDL, MDL_NS, ['family_name']);

  it('refuses a document of a docType no credential query asked for, beside the one asked for', () => {
    const bytes = deviceResponse(document(MDL, MDL_NS, ['family_name']), document('org.example.loyalty', 'org.example', ['member_id', 'address']));
    expect(codeOf(() => annexCVpToken(bytes, { credentials: [mdl] }))).toBe('authorization.annex_c_element_not_requested');
  });

  it('refuses an element the query did not ask for', () => {
    const bytes = deviceResponse(document(MDL, MDL_NS, ['family_name', 'portrait']));
    expect(codeOf(() => annexCVpToken(bytes, { credentials: [mdl] }))).toBe('authorization.annex_c_element_not_requested');
  });

  it('keeps the bytes as received for one query, and splits documents by docType for several', () => {
    const one = deviceResponse(document(MDL, MDL_NS, ['family_name']));
    expect(Object.keys(annexCVpToken(one, { credentials: [mdl] }))).toEqual(['mdl']);
    const pid = query('pid', 'eu.europa.ec.eudi.pid.1', 'eu.europa.ec.eudi.pid.1', ['birth_date']);
    const both = deviceResponse(document(MDL, MDL_NS, ['family_name']), document('eu.europa.ec.eudi.pid.1', 'eu.europa.ec.eudi.pid.1', ['birth_date']));
    expect(Object.keys(annexCVpToken(both, { credentials: [mdl, pid] })).sort()).toEqual(['mdl', 'pid']);
  });

  it('leaves something that is no document to the format policy (routed to the first query)', () => {
    const bytes = deviceResponse('not a document');
    expect(Object.keys(annexCVpToken(bytes, { credentials: [mdl] }))).toEqual(['mdl']);
  });
});
