import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PolicyFailure } from '../policy-failure.js';
import { resolveDisclosures } from './resolve-disclosures.js';

const disclose = (...parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
const digestOf = (encoded: string) => createHash('sha256').update(encoded).digest('base64url');

function expectInvalid(fn: () => unknown, detail: RegExp) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyFailure);
    expect((error as PolicyFailure).code).toBe('proof.disclosure_invalid');
    expect((error as PolicyFailure).detail).toMatch(detail);
    return;
  }
  throw new Error('expected a disclosure failure');
}

describe('resolveDisclosures', () => {
  it('resolves object and array disclosures recursively, ignores decoys and strips _sd/_sd_alg', () => {
    const street = disclose('s1', 'street', 'Main St');
    const address = disclose('s2', 'address', { _sd: [digestOf(street)], city: 'Berlin' });
    const nationality = disclose('s3', 'DE');
    const payload = { _sd_alg: 'sha-256', _sd: [digestOf(address), digestOf('decoy')], nationalities: [{ '...': digestOf(nationality) }, { '...': digestOf('decoy2') }, 'FR'] };
    expect(resolveDisclosures(payload, [address, street, nationality])).toEqual({ address: { city: 'Berlin', street: 'Main St' }, nationalities: ['DE', 'FR'] });
  });

  it('rejects reserved claim names _sd and ...', () => {
    for (const name of ['_sd', '...']) {
      const d = disclose('s', name, 'x');
      expectInvalid(() => resolveDisclosures({ _sd: [digestOf(d)] }, [d]), /reserved claim name/);
    }
  });

  it('rejects a disclosed name that already exists', () => {
    const d = disclose('s', 'given_name', 'Eve');
    expectInvalid(() => resolveDisclosures({ given_name: 'Erika', _sd: [digestOf(d)] }, [d]), /already exists/);
  });

  it('rejects a digest that appears twice', () => {
    const d = disclose('s', 'given_name', 'Eve');
    expectInvalid(() => resolveDisclosures({ _sd: [digestOf(d)], nested: { _sd: [digestOf(d)] } }, [d]), /more than once/);
  });

  it('rejects the same disclosure sent twice', () => {
    const d = disclose('s', 'given_name', 'Eve');
    expectInvalid(() => resolveDisclosures({ _sd: [digestOf(d)] }, [d, d]), /included more than once/);
  });

  it('rejects malformed disclosures', () => {
    expectInvalid(() => resolveDisclosures({}, ['!!!']), /not base64url/);
    expectInvalid(() => resolveDisclosures({}, [Buffer.from('{"a":1}').toString('base64url')]), /salt/);
    expectInvalid(() => resolveDisclosures({}, [disclose('s', 1, 'x')]), /non-string claim name/);
  });

  it('rejects a disclosure in the wrong position', () => {
    const element = disclose('s', 'DE');
    expectInvalid(() => resolveDisclosures({ _sd: [digestOf(element)] }, [element]), /array element disclosure/);
    const property = disclose('s', 'n', 'DE');
    expectInvalid(() => resolveDisclosures({ list: [{ '...': digestOf(property) }] }, [property]), /object property disclosure/);
  });

  it('rejects a disclosure no digest references', () => {
    expectInvalid(() => resolveDisclosures({ _sd: [] }, [disclose('s', 'x', 1)]), /not referenced/);
  });

  it('rejects selectively disclosed iss/vct/cnf/status/nbf/exp', () => {
    const d = disclose('s', 'vct', 'urn:x');
    expectInvalid(() => resolveDisclosures({ _sd: [digestOf(d)] }, [d]), /must not be selectively disclosed/);
  });

  it('keeps a disclosed __proto__ as a plain property', () => {
    const d = disclose('s', '__proto__', { polluted: true });
    const claims = resolveDisclosures({ _sd: [digestOf(d)] }, [d]);
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(claims)).toEqual(['__proto__']);
  });

  it('rejects an unsupported _sd_alg', () => {
    expectInvalid(() => resolveDisclosures({ _sd_alg: 'md5' }, []), /_sd_alg/);
  });
});
