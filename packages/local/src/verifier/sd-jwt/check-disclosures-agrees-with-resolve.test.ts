import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkDisclosures, resolveDisclosures } from './resolve-disclosures.js';

const disclose = (...parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
const digestOf = (encoded: string) => createHash('sha256').update(encoded).digest('base64url');

/** What a call did: the failure's detail, or 'ok'. */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as { detail?: string }).detail}`;
  }
}

/** A small deterministic PRNG, so that a failing case can be replayed from its seed. */
function prng(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

// Names chosen to collide with each other, with reserved names and with never-disclosed claims.
const NAMES = ['a', 'b', 'given_name', '__proto__', '_sd', '...', '_sd_alg', 'iss', 'cnf', 'address'];

/** A random issuer payload with disclosures, then random damage: the inputs both functions must judge alike. */
function randomCase(seed: number): { payload: Record<string, unknown>; disclosures: string[] } {
  const pick = prng(seed);
  const disclosures: string[] = [];
  const digests: string[] = [];
  const value = (depth: number): unknown => {
    const kind = depth > 3 ? pick(3) : pick(6);
    if (kind === 0) return 'v' + pick(5);
    if (kind === 1) return pick(100);
    if (kind === 2) return null;
    if (kind === 3) {
      const items: unknown[] = [];
      for (let i = pick(4); i > 0; i--) {
        if (pick(2) === 0) items.push(value(depth + 1));
        else {
          const d = pick(6) === 0 ? disclose('s' + pick(1000), NAMES[pick(NAMES.length)], value(depth + 1)) : disclose('s' + pick(1000), value(depth + 1));
          disclosures.push(d);
          digests.push(digestOf(d));
          items.push(pick(8) === 0 ? { '...': digestOf(d), extra: 1 } : { '...': digestOf(d) });
        }
      }
      return items;
    }
    const object: Record<string, unknown> = {};
    const sd: unknown[] = [];
    for (let i = pick(4); i > 0; i--) {
      const name = NAMES[pick(NAMES.length)]!;
      if (pick(2) === 0) Object.defineProperty(object, name, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      else {
        const d = pick(6) === 0 ? disclose('s' + pick(1000), value(depth + 1)) : disclose('s' + pick(1000), name, value(depth + 1));
        disclosures.push(d);
        digests.push(digestOf(d));
        sd.push(digestOf(d));
      }
    }
    if (pick(5) === 0) sd.push('decoy' + pick(10));
    if (sd.length > 0 || pick(4) === 0) Object.defineProperty(object, '_sd', { value: pick(10) === 0 ? 'not-an-array' : sd, enumerable: true, writable: true, configurable: true });
    return object;
  };
  let payload = value(0);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) payload = { x: payload };
  const top = payload as Record<string, unknown>;
  if (pick(4) === 0) top._sd_alg = ['sha-256', 'sha-384', 'md5', 7][pick(4)];
  // Damage: a disclosure twice, one no digest names, a digest used twice, a garbage disclosure.
  const damage = pick(6);
  if (damage === 0 && disclosures.length > 0) disclosures.push(disclosures[pick(disclosures.length)]!);
  if (damage === 1) disclosures.push(disclose('orphan', 'z', 1));
  if (damage === 2 && digests.length > 0) top.again = [{ '...': digests[pick(digests.length)] }];
  if (damage === 3) disclosures.push('!!!');
  return { payload: top, disclosures };
}

describe('checkDisclosures judges every input as resolveDisclosures does', () => {
  it('accepts and refuses the same inputs with the same detail, over thousands of random payloads', () => {
    let refused = 0;
    for (let seed = 1; seed <= 4000; seed++) {
      const { payload, disclosures } = randomCase(seed);
      const resolved = outcome(() => resolveDisclosures(payload, disclosures));
      expect(outcome(() => checkDisclosures(payload, disclosures)), `seed ${seed}`).toBe(resolved);
      if (resolved !== 'ok') refused++;
    }
    // Both kinds occur, so the comparison covers refusals as well as acceptances.
    expect(refused).toBeGreaterThan(400);
    expect(refused).toBeLessThan(3600);
  });

  it('refuses a disclosed name that repeats a plain member, as resolve does, but not _sd_alg at the top', () => {
    const d = disclose('s', 'given_name', 'Erika');
    expect(outcome(() => checkDisclosures({ given_name: 'x', _sd: [digestOf(d)] }, [d]))).toMatch(/already exists/);
    const alg = disclose('s', '_sd_alg', 'x');
    const payload = { _sd_alg: 'sha-256', _sd: [digestOf(alg)] };
    expect(outcome(() => checkDisclosures(payload, [alg]))).toBe(outcome(() => resolveDisclosures(payload, [alg])));
  });
});
