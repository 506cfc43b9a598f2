import { describe, expect, it } from 'vitest';
import { matchesValues, selectClaims, selectMdocClaim } from './claims-path.js';

const data = { name: 'E', address: { street: 'S' }, degrees: [{ type: 'BSc' }, { type: 'MSc' }], list: ['a', 'b'], nothing: null };

describe('DCQL claims path pointer (OpenID4VP 1.0 §7.1)', () => {
  it('selects by key, by index and with null over all elements', () => {
    expect(selectClaims(data, ['address', 'street'], { anyIndex: false })).toEqual({ ok: true, selected: ['S'] });
    expect(selectClaims(data, ['degrees', 1, 'type'], { anyIndex: false })).toEqual({ ok: true, selected: ['MSc'] });
    expect(selectClaims(data, ['degrees', null, 'type'], { anyIndex: false })).toEqual({ ok: true, selected: ['BSc', 'MSc'] });
  });

  it('treats an integer as any element in SD-JWT presentation mode', () => {
    expect(selectClaims(data, ['list', 5], { anyIndex: false })).toEqual({ ok: false, reason: 'empty' });
    expect(selectClaims(data, ['list', 5], { anyIndex: true })).toEqual({ ok: true, selected: ['a', 'b'] });
  });

  it('errors on type mismatches and empty selections; null leaves count as absent', () => {
    expect(selectClaims(data, ['name', 'x'], { anyIndex: false })).toEqual({ ok: false, reason: 'type_error' });
    expect(selectClaims(data, ['address', 0], { anyIndex: false })).toEqual({ ok: false, reason: 'type_error' });
    expect(selectClaims(data, ['missing'], { anyIndex: false })).toEqual({ ok: false, reason: 'empty' });
    expect(selectClaims(data, ['nothing'], { anyIndex: false })).toEqual({ ok: false, reason: 'empty' });
    expect(selectClaims(data, ['__proto__'], { anyIndex: false })).toEqual({ ok: false, reason: 'empty' });
  });

  it('mdoc paths are exactly [namespace, element]', () => {
    const ns = { 'org.iso.18013.5.1': { age_over_18: true } };
    expect(selectMdocClaim(ns, ['org.iso.18013.5.1', 'age_over_18'])).toEqual({ ok: true, selected: [true] });
    expect(selectMdocClaim(ns, ['org.iso.18013.5.1'])).toEqual({ ok: false, reason: 'type_error' });
    expect(selectMdocClaim(ns, ['org.iso.18013.5.1', 'age_over_21'])).toEqual({ ok: false, reason: 'empty' });
  });

  it('compares values by type and value', () => {
    expect(matchesValues(['DE', 'FR'], ['FR'])).toBe(true);
    expect(matchesValues([18], ['18'])).toBe(false);
    expect(matchesValues([true], [true, false])).toBe(true);
  });
});
