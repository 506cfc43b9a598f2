import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createAuthorizationBodySchema } from './create-authorization-body.js';
import { parseCommonCreateBody } from './create-body-fast-path.js';

/**
 * JSON with undefined members, non-finite numbers, -0 and key order kept, so that two outputs
 * compare member by member, in order (toStrictEqual ignores order and trips over a member named
 * "constructor").
 */
const ordered = (value: unknown): string =>
  JSON.stringify(value, (_key, member: unknown) => (member === undefined ? '<undefined>' : typeof member === 'number' && !Number.isFinite(member) ? `<${member}>` : Object.is(member, -0) ? '<-0>' : member));

/** What the schema makes of `body`: its output, or undefined when it refuses the body. */
const viaSchema = (body: unknown): unknown => {
  const result = v.safeParse(createAuthorizationBodySchema, body);
  return result.success ? result.output : undefined;
};

const baseBodies = (): Record<string, unknown>[] => [
  {
    responseMode: 'direct_post.jwt',
    profile: 'haip',
    query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] } },
  },
  {
    redirectUri: 'https://rp.example/done',
    responseType: 'vp_token id_token',
    responseMode: 'direct_post',
    nonce: 'n'.repeat(20),
    webhookUrl: 'https://rp.example/hook',
    walletMetadata: { vp_formats_supported: {} },
    unknown_top: 1,
    query: {
      dcql: {
        x_query: { a: 1 },
        credentials: [
          { x_first: true, format: 'mso_mdoc', id: 'mdl', multiple: false, require_cryptographic_holder_binding: true, claims: [{ id: 'c1', path: ['org.iso.18013.5.1', 'age_over_18'], values: [true, 1, 'x'], intent_to_retain: false, x_claim: [1] }] },
          { id: 'b_2', format: 'jwt_vc_json', claims: [{ path: ['credentialSubject', null, 0] }] },
        ],
      },
      type: 'DCQL',
      ignored: 'dropped by the schema',
    },
  },
];

const ODD_VALUES: unknown[] = [
  undefined, null, '', 'x', 0, -1, 1.5, NaN, Infinity, -0, true, false, [], {}, ['a'], [1], [null], [undefined], 'A'.repeat(3000),
  'haip', 'vp_token', 'vp_token id_token', 'direct_post', 'dc_api', 'DCQL', 'DIF.PresentationExchange', 'https://rp.example/cb', 'ftp://rp.example/', 'not a url',
  'abc-_', 'bad id!', 'n'.repeat(16), 'n'.repeat(15), 'n'.repeat(256), 'n'.repeat(257), 'h'.repeat(2048), 'h'.repeat(2049), 'n~._-'.repeat(4), { vct_values: [] }, [{ path: ['a'] }], [{ id: 'q', format: 'f' }], [['a']],
];
const EXTRA_KEYS = ['x_extra', 'nonce', 'profile', 'transaction_data', 'responseTypeParameters', 'walletMetadata', 'webhookUrl', 'responseType', 'redirectUri', 'id', 'format', 'multiple', 'meta', 'claims', 'claim_sets', 'trusted_authorities', 'credential_sets', 'values', 'intent_to_retain', 'path', 'type', 'dcql', 'constructor', 'prototype'];

/** Deterministic pseudo-random numbers (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every object and array in `value`, the value itself included. */
function containers(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (value !== null && typeof value === 'object') {
    out.push(value as Record<string, unknown>);
    for (const member of Object.values(value)) containers(member, out);
  }
  return out;
}

function mutate(body: Record<string, unknown>, next: () => number): void {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const target = pick(containers(body));
  const keys = Object.keys(target);
  const choice = next();
  if (Array.isArray(target)) {
    if (choice < 0.2) target.length = 0;
    else if (keys.length > 0) target[Math.floor(next() * target.length)] = structuredClone(pick(ODD_VALUES));
  } else if (choice < 0.25 && keys.length > 0) delete target[pick(keys)];
  else if (choice < 0.5) target[pick(EXTRA_KEYS)] = structuredClone(pick(ODD_VALUES));
  else if (keys.length > 0) target[pick(keys)] = structuredClone(pick(ODD_VALUES));
}

/** Fails unless the fast path either declines `body` or gives exactly the schema's output for it. */
function expectSameAsSchema(body: Record<string, unknown>): boolean {
  const fast = parseCommonCreateBody(body);
  if (fast === undefined) return false;
  const expected = viaSchema(body);
  expect(expected, `accepted a body the schema refuses: ${ordered(body)}`).toBeDefined();
  expect(ordered(fast), ordered(body)).toBe(ordered(expected));
  return true;
}

describe('parseCommonCreateBody', () => {
  it('accepts the common bodies, giving the schema\'s output member by member and in order', () => {
    for (const body of baseBodies()) {
      const fast = parseCommonCreateBody(body);
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(viaSchema(body));
      expect(ordered(fast)).toBe(ordered(viaSchema(body)));
    }
  });

  it('leaves to the schema what it does not handle', () => {
    const [body] = baseBodies();
    for (const extra of [{ transaction_data: ['e30'] }, { responseTypeParameters: {} }, { responseMode: 'dc_api' }]) {
      expect(parseCommonCreateBody({ ...body, ...extra })).toBeUndefined();
    }
    expect(parseCommonCreateBody({ ...body, query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'p', input_descriptors: [{ id: 'a' }] } } })).toBeUndefined();
  });

  it('accepts only bodies the schema accepts, and then gives exactly its output (mutated bodies)', () => {
    const next = random(12);
    let acceptedByBoth = 0;
    for (let i = 0; i < 4000; i++) {
      const body = baseBodies()[i % 2]!;
      const rounds = 1 + Math.floor(next() * 3);
      for (let r = 0; r < rounds; r++) mutate(body, next);
      if (expectSameAsSchema(body)) acceptedByBoth++;
    }
    // The mutations must leave enough bodies valid for the comparison to mean something.
    expect(acceptedByBoth).toBeGreaterThan(400);
  });

  it('accepts only bodies the schema accepts, and then gives exactly its output (every member set to every odd value)', () => {
    let acceptedByBoth = 0;
    for (const [b, base] of baseBodies().entries()) {
      const places = containers(base).length;
      for (let place = 0; place < places; place++) {
        const keys = new Set([...Object.keys(containers(baseBodies()[b]!)[place]!), ...EXTRA_KEYS]);
        for (const key of keys) {
          for (const odd of ODD_VALUES) {
            const body = baseBodies()[b]!;
            const target = containers(body)[place]!;
            if (Array.isArray(target)) {
              if (!/^\d+$/.test(key)) continue;
              target[Number(key)] = structuredClone(odd);
            } else target[key] = structuredClone(odd);
            if (expectSameAsSchema(body)) acceptedByBoth++;
          }
        }
      }
    }
    expect(acceptedByBoth).toBeGreaterThan(200);
  });

  it('keeps object members by reference and copies arrays, as the schema does', () => {
    const body = baseBodies()[0]!;
    const fast = parseCommonCreateBody(body) as { query: { dcql: { credentials: { meta: unknown; claims: { path: unknown }[] }[] } } };
    const input = (body.query as typeof fast.query).dcql.credentials[0]!;
    expect(fast.query.dcql.credentials[0]!.meta).toBe(input.meta);
    expect(fast.query.dcql.credentials[0]!.claims[0]!.path).not.toBe(input.claims[0]!.path);
  });

  it('returns only what it checked, even from objects whose members change between reads', () => {
    // A programmatic caller may hand in getters or proxies: each member must be read once.
    const flipping = (first: unknown, later: unknown) => {
      let reads = 0;
      return { get: () => (reads++ === 0 ? first : later), enumerable: true };
    };
    const body = baseBodies()[0]!;
    const credential = (body.query as { dcql: { credentials: Record<string, unknown>[] } }).dcql.credentials[0]!;
    const claim = (credential.claims as Record<string, unknown>[])[0]!;
    Object.defineProperty(credential, 'multiple', flipping(true, 'not-a-boolean'));
    Object.defineProperty(credential, 'meta', flipping({}, 'not-an-object'));
    Object.defineProperty(claim, 'id', flipping('ok', '../not an id'));
    Object.defineProperty(claim, 'intent_to_retain', flipping(false, 'yes'));
    const path = ['given_name'];
    Object.defineProperty(path, Symbol.iterator, {
      value: function* () {
        yield 'checked';
      },
    });
    claim.path = path;
    const fast = parseCommonCreateBody(body) as { query: { dcql: { credentials: Record<string, unknown>[] } } } | undefined;
    expect(fast).toBeDefined();
    const out = fast!.query.dcql.credentials[0]!;
    expect(out.multiple).toBe(true);
    expect(out.meta).toEqual({});
    const outClaim = (out.claims as Record<string, unknown>[])[0]!;
    expect(outClaim.id).toBe('ok');
    expect(outClaim.intent_to_retain).toBe(false);
    expect(outClaim.path).toEqual(['given_name']);
  });
});
