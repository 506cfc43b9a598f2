import { describe, expect, it } from 'vitest';
import { isDoctypeNamespace, topLevelClaims } from './top-level-claims.js';

describe('topLevelClaims', () => {
  it('lists the elements of every namespace by identifier alone', () => {
    expect(topLevelClaims('org.iso.18013.5.1.mDL', { 'org.iso.18013.5.1': { given_name: 'Erika' }, 'org.iso.18013.5.1.aamva': { DHS_compliance: 'F' } })).toEqual({
      given_name: 'Erika',
      DHS_compliance: 'F',
    });
  });

  it("lets the doctype's own namespace win a clash even when it comes later in the document", () => {
    const claims = topLevelClaims('org.iso.18013.5.1.mDL', { 'org.example.extra': { family_name: 'Other' }, 'org.iso.18013.5.1': { family_name: 'Mustermann' } });
    expect(claims.family_name).toBe('Mustermann');
    expect(topLevelClaims('eu.europa.ec.eudi.pid.1', { 'x.y': { given_name: 'X' }, 'eu.europa.ec.eudi.pid.1': { given_name: 'Erika' } }).given_name).toBe('Erika');
  });

  it('lets the first namespace in document order win a clash between two foreign namespaces', () => {
    expect(topLevelClaims('org.example.doc', { 'a.one': { code: 1 }, 'b.two': { code: 2 } }).code).toBe(1);
  });

  it('keeps an element named __proto__ as data', () => {
    const claims = topLevelClaims('d', { ns: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown> });
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect(Object.keys(claims)).toEqual(['__proto__']);
  });

  it("treats a namespace as the doctype's when it equals the docType or the docType without its last label", () => {
    expect(isDoctypeNamespace('org.iso.18013.5.1.mDL', 'org.iso.18013.5.1')).toBe(true);
    expect(isDoctypeNamespace('eu.europa.ec.eudi.pid.1', 'eu.europa.ec.eudi.pid.1')).toBe(true);
    expect(isDoctypeNamespace('org.iso.18013.5.1.mDL', 'org.iso.18013.5')).toBe(false);
    expect(isDoctypeNamespace('org.iso.18013.5.1.mDL', 'org.iso.18013.5.1.aamva')).toBe(false);
  });
});
