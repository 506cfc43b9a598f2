import { createHash } from 'node:crypto';
import { decodeSdJwtSync, getClaimsSync } from '@sd-jwt/decode';
import { describe, expect, it } from 'vitest';
import { parseSdJwt } from './parse-sd-jwt.js';
import { resolveSdClaims } from './resolve-sd-claims.js';
import { sdDigest } from '../shared/test-fixtures.js';

const ref = { path: ['pid', 0], queryId: 'pid', index: 0, format: 'dc+sd-jwt' };
const b64u = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hasher = (data: string, alg: string) => new Uint8Array(createHash(alg.replace('-', '')).update(data, 'ascii').digest());

/** `<jwt>~<disclosures>~` with an unsigned issuer JWT (resolution is structural). */
function sdJwt(payload: Record<string, unknown>, disclosures: string[]): string {
  return [`${b64u({ alg: 'ES256', typ: 'dc+sd-jwt' })}.${b64u(payload)}.c2ln`, ...disclosures, ''].join('~');
}

/** Our resolution beside @sd-jwt/decode's getClaims over the same input. */
function both(payload: Record<string, unknown>, disclosures: string[]) {
  const raw = sdJwt(payload, disclosures);
  const parsed = parseSdJwt(raw, ref);
  const decoded = decodeSdJwtSync(raw, hasher);
  return { ours: resolveSdClaims(parsed.issuerJwt.payload, parsed.disclosures), library: getClaimsSync(decoded.jwt.payload, decoded.disclosures, hasher) };
}

const d = (...parts: unknown[]) => b64u(parts);

describe('resolveSdClaims resolves disclosures as @sd-jwt/decode does', () => {
  const given = d('s1', 'given_name', 'Erika');
  const family = d('s2', 'family_name', 'Mustermann');
  const country = d('s3', 'country', 'DE');
  const address = d('s4', 'address', { locality: 'Berlin', _sd: [sdDigest(country), 'decoy-digest'] });
  const de = d('s5', 'DE');
  const fr = d('s6', 'FR');
  const nestedObject = d('s7', { city: 'Paris', _sd: [sdDigest(given)] });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['object members, nested objects and decoy digests', { vct: 'x', _sd_alg: 'sha-256', _sd: [sdDigest(family), sdDigest(address), 'decoy'] }, [family, address, country]],
    ['array elements, undisclosed ones dropped', { vct: 'x', nationalities: [{ '...': sdDigest(de) }, { '...': 'undisclosed' }, 'IT', { '...': sdDigest(fr) }] }, [de, fr]],
    ['an object disclosed as an array element, with its own digests', { vct: 'x', places: [{ '...': sdDigest(nestedObject) }] }, [nestedObject, given]],
    ['a disclosed member replacing a plain member of the same name', { vct: 'x', given_name: 'Plain', _sd: [sdDigest(given)] }, [given]],
    ['an empty claim name, which adds nothing', { vct: 'x', _sd: [sdDigest(d('s8', '', 'empty'))] }, [d('s8', '', 'empty')]],
    ['an object-property disclosure referenced from an array', { vct: 'x', list: [{ '...': sdDigest(given) }] }, [given]],
    ['an array-element disclosure referenced from _sd', { vct: 'x', _sd: [sdDigest(de)] }, [de]],
    ['"..." members with extra members and falsy digests', { vct: 'x', list: [{ '...': 'missing', extra: 1 }, { '...': '' }, { '...': 0, n: 2 }], obj: { '...': { keep: true } } }, []],
    ['a string, null or empty _sd', { vct: 'x', a: { _sd: 'text' }, b: { _sd: null }, c: { _sd: [] } }, []],
    ['non-string digests', { vct: 'x', _sd: [1, null, { '...': 'x' }], list: [{ '...': 5 }] }, []],
    ['an unreferenced disclosure', { vct: 'x' }, [given]],
    ['nested arrays and nulls', { vct: 'x', m: [[1, [{ '...': sdDigest(de) }]], null, { n: null }] }, [de]],
  ])('%s', (_name, payload, disclosures) => {
    const { ours, library } = both(payload, disclosures);
    expect(ours).toEqual(library);
    // Same member order too (the claims are shown and hashed as they come).
    expect(JSON.stringify(ours)).toBe(JSON.stringify(library));
  });

  it('cannot apply an _sd that is neither an array, a string nor falsy, like the library', () => {
    const raw = sdJwt({ vct: 'x', _sd: 3 }, []);
    const parsed = parseSdJwt.bind(null, raw, ref);
    expect(() => getClaimsSync(decodeSdJwtSync(raw, hasher).jwt.payload, [], hasher)).toThrow();
    expect(parsed).toThrow(/could not be applied/);
  });

  it('shares no object with the payload or the disclosures', () => {
    const raw = sdJwt({ vct: 'x', obj: { a: 1 }, list: [{ '...': sdDigest(nestedObject) }], odd: { '...': { b: 2 } } }, [nestedObject, given]);
    const parsed = parseSdJwt(raw, ref);
    const claims = resolveSdClaims(parsed.issuerJwt.payload, parsed.disclosures) as Record<string, any>;
    claims.obj.a = 9;
    claims.list[0].city = 'Lyon';
    claims.odd['...'].b = 9;
    expect(parsed.issuerJwt.payload).toEqual({ vct: 'x', obj: { a: 1 }, list: [{ '...': sdDigest(nestedObject) }], odd: { '...': { b: 2 } } });
    expect(parsed.disclosures[0]!.value).toEqual({ city: 'Paris', _sd: [sdDigest(given)] });
  });

  it('keeps a disclosed "__proto__" claim as a plain member, never as a prototype', () => {
    const proto = d('s9', '__proto__', { polluted: true });
    const parsed = parseSdJwt(sdJwt({ vct: 'x', _sd: [sdDigest(proto)] }, [proto]), ref);
    const claims = resolveSdClaims(parsed.issuerJwt.payload, parsed.disclosures) as Record<string, unknown>;
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect(Object.hasOwn(claims, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
