import { describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../../model/authorization-query.js';
import { sameFormat } from '../registry.js';
import { claimPathKey } from '../shared/claim-path-key.js';
import { selectedClaimsByQuery, selectionKey } from './selected-claims.js';

type Credential = DcqlQuery['credentials'][number];
const NS = 'org.iso.18013.5.1';
const MDL = 'org.iso.18013.5.1.mDL';
const mdoc = (id: string, elements: string[], doctype = MDL): Credential => ({ id, format: 'mso_mdoc', meta: { doctype_value: doctype }, claims: elements.map((e) => ({ path: [NS, e] })) });
const sdJwt = (id: string, format: string, vct: string, claims?: string[][]): Credential => ({ id, format, meta: { vct_values: [vct] }, ...(claims ? { claims: claims.map((path) => ({ path })) } : {}) });

// The rule of OpenID4VP 1.0 section 6.4 stated pair by pair, as a reference for the grouping.
function pairwise(credentials: Credential[]): Map<string, ReadonlySet<string>> {
  const out = new Map<string, ReadonlySet<string>>();
  for (const query of credentials) {
    if (!Array.isArray(query.claims)) continue;
    const paths = new Set<string>();
    for (const other of credentials) {
      if (!sameFormat(other.format, query.format) || JSON.stringify(other.meta ?? {}) !== JSON.stringify(query.meta ?? {})) continue;
      for (const claim of other.claims ?? []) paths.add(claimPathKey(claim.path));
    }
    out.set(query.id, paths);
  }
  return out;
}
const asArrays = (m: Map<string, ReadonlySet<string>>) => Object.fromEntries([...m].map(([id, s]) => [id, [...s].sort()]));

const cases: Record<string, Credential[]> = {
  'one query': [mdoc('mdl', ['family_name', 'portrait'])],
  'two queries of one doctype share their elements': [mdoc('names', ['family_name']), mdoc('age', ['age_over_18'])],
  'another doctype selects nothing for this one': [mdoc('names', ['family_name']), mdoc('pid', ['age_over_18'], 'eu.europa.ec.eudi.pid.1')],
  'a format alias counts as its format': [sdJwt('a', 'dc+sd-jwt', 'urn:pid', [['given_name']]), sdJwt('b', 'vc+sd-jwt', 'urn:pid', [['family_name']])],
  'a query without claims gets no set and adds nothing': [sdJwt('a', 'dc+sd-jwt', 'urn:pid', [['given_name']]), sdJwt('b', 'dc+sd-jwt', 'urn:pid')],
  'an unknown format only matches itself': [sdJwt('a', 'x-unknown', 'urn:pid', [['given_name']]), sdJwt('b', 'x-unknown', 'urn:pid', [['age']]), sdJwt('c', 'dc+sd-jwt', 'urn:pid', [['nick']])],
  'no meta equals empty meta': [{ id: 'a', format: 'jwt_vc_json', claims: [{ path: ['x'] }] }, { id: 'b', format: 'jwt_vc_json', meta: {}, claims: [{ path: ['y'] }] }],
};

describe('claims selected per credential query', () => {
  for (const [name, credentials] of Object.entries(cases)) {
    it(`selects what the pairwise rule selects: ${name}`, () => {
      expect(asArrays(selectedClaimsByQuery({ credentials }))).toEqual(asArrays(pairwise(credentials)));
    });
  }

  it('computes one key per query for 600 mdoc queries (not one per pair) and selects the shared elements', () => {
    const credentials = Array.from({ length: 600 }, (_, i) => mdoc(`q${i}`, [`element_${i}`], i % 2 === 0 ? MDL : `org.example.doc${i}`));
    let keys = 0;
    const selected = selectedClaimsByQuery({ credentials }, (query) => (keys++, selectionKey(query)));
    expect(keys).toBe(600);
    expect(selected.size).toBe(600);
    // The 300 mDL queries each select all 300 mDL elements; every other query only its own element.
    expect(selected.get('q0')?.size).toBe(300);
    expect(selected.get('q598')?.has(claimPathKey([NS, 'element_0']))).toBe(true);
    expect([...selected.get('q1')!]).toEqual([claimPathKey([NS, 'element_1'])]);
  });
});
