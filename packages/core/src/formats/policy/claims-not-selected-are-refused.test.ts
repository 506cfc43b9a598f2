import { describe, expect, it } from 'vitest';
import type { AuthorizationQuery, DcqlCredentialQuery } from '../../model/authorization-record.js';
import { runFormatPolicy, type FormatOutcome } from './run-format-policy.js';
import { buildDeviceResponse } from '../shared/test-fixtures.js';

// OpenID4VP 1.0 section 6.4: a wallet must not send selectively disclosable claims the request did
// not select; every mdoc data element is selectively disclosable. The same check covers an
// org-iso-mdoc (Annex C) response, whose vp_token runs through this policy.
const NS = 'org.iso.18013.5.1';
const MDL = 'org.iso.18013.5.1.mDL';
const dcql = (...credentials: DcqlCredentialQuery[]): AuthorizationQuery => ({ type: 'DCQL', dcql: { credentials } });
const mdlQuery = (id: string, elements: string[], extra: Partial<DcqlCredentialQuery> = {}): DcqlCredentialQuery => ({
  id,
  format: 'mso_mdoc',
  meta: { doctype_value: MDL },
  claims: elements.map((e) => ({ id: e, path: [NS, e] })),
  ...extra,
});
const mdl = (...elements: string[]) => buildDeviceResponse([{ docType: MDL, elements: elements.map((identifier) => ({ namespace: NS, identifier, value: 'x' })) }]);
const run = (query: AuthorizationQuery, vpToken: unknown): FormatOutcome => runFormatPolicy({ responseType: 'vp_token', query, vpToken });
const failures = (outcome: FormatOutcome) => (outcome.ok ? [] : outcome.results.map((r) => [r.error?.code, r.path]));

describe('mdoc elements the request did not select', () => {
  it('refuses an element beside the ones asked for, naming it, with format.claim_not_requested', () => {
    const outcome = run(dcql(mdlQuery('mdl', ['family_name'])), { mdl: [mdl('family_name', 'portrait')] });
    expect(failures(outcome)).toEqual([['format.claim_not_requested', ['mdl', 0]]]);
    expect(outcome.ok ? '' : outcome.results[0]?.error?.detail).toContain(`${NS} / portrait`);
  });

  it('accepts exactly the elements asked for, or fewer (coverage is the validator\'s)', () => {
    expect(run(dcql(mdlQuery('mdl', ['family_name', 'given_name'])), { mdl: [mdl('family_name', 'given_name')] }).ok).toBe(true);
    expect(run(dcql(mdlQuery('mdl', ['family_name', 'given_name'])), { mdl: [mdl('family_name')] }).ok).toBe(true);
  });

  it('refuses a second document of another docType that discloses anything', () => {
    const two = buildDeviceResponse([
      { docType: MDL, elements: [{ namespace: NS, identifier: 'family_name', value: 'x' }] },
      { docType: 'org.example.loyalty', elements: [{ namespace: 'org.example', identifier: 'member_id', value: 'x' }] },
    ]);
    expect(failures(run(dcql(mdlQuery('mdl', ['family_name'])), { mdl: [two] }))).toEqual([['format.claim_not_requested', ['mdl', 0]]]);
  });

  it('accepts an element another query selects from the same kind of credential (the same credential may answer both)', () => {
    const query = dcql(mdlQuery('names', ['family_name']), mdlQuery('age', ['age_over_18']));
    expect(run(query, { names: [mdl('family_name', 'age_over_18')], age: [mdl('age_over_18')] }).ok).toBe(true);
    // Another doctype's query selects nothing for this credential.
    const other = dcql(mdlQuery('names', ['family_name']), { id: 'pid', format: 'mso_mdoc', meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' }, claims: [{ path: [NS, 'age_over_18'] }] });
    expect(failures(run(other, { names: [mdl('family_name', 'age_over_18')] }))).toEqual([['format.claim_not_requested', ['names', 0]]]);
  });

  it('accepts an element of any claim_sets option', () => {
    const query = dcql(mdlQuery('mdl', ['family_name', 'age_over_18'], { claim_sets: [['age_over_18'], ['family_name']] }));
    expect(run(query, { mdl: [mdl('family_name')] }).ok).toBe(true);
    expect(run(query, { mdl: [mdl('age_over_18')] }).ok).toBe(true);
  });

  it('leaves a query without claims unconstrained (the relying party names the claims it wants refused otherwise)', () => {
    expect(run(dcql({ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL } }), { mdl: [mdl('family_name', 'portrait')] }).ok).toBe(true);
  });
});
