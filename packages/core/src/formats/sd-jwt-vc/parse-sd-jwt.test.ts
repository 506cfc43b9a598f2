import { describe, expect, it } from 'vitest';
import { MAX_DISCLOSURE_NESTING, MAX_SD_JWT_DISCLOSURES, parseSdJwt } from './parse-sd-jwt.js';
import { buildSdJwt, disclosure, es256Key, sdDigest, signJwt, failure } from '../shared/test-fixtures.js';

const ref = { path: ['pid', 0], queryId: 'pid', index: 0, format: 'dc+sd-jwt' };
const b64u = (s: string) => Buffer.from(s).toString('base64url');

describe('parseSdJwt', () => {
  it('decodes issuer JWT, disclosures with digests, KB-JWT and resolved claims', async () => {
    const issuer = await es256Key();
    const holder = await es256Key();
    const built = await buildSdJwt({ issuer, holder, kb: true });
    const parsed = parseSdJwt(built.sdJwt, ref);

    expect(parsed).toMatchObject({ kind: 'sd-jwt', raw: built.sdJwt, queryId: 'pid', index: 0, path: ['pid', 0], format: 'dc+sd-jwt', vct: 'urn:eudi:pid:1' });
    expect(parsed.issuerJwt.compact).toBe(built.issuerJwt);
    expect(parsed.issuerJwt.header).toMatchObject({ alg: 'ES256', typ: 'dc+sd-jwt' });
    expect(parsed.kbJwt?.compact).toBe(built.kbJwt);
    expect(parsed.kbJwt?.header.typ).toBe('kb+jwt');
    expect(parsed.disclosures.map((d) => d.encoded)).toEqual(built.disclosures);
    expect(parsed.disclosures.map((d) => d.digest)).toEqual(built.disclosures.map((d) => sdDigest(d)));
    expect(parsed.disclosures[0]).toMatchObject({ key: 'given_name', value: 'Erika' });
    expect(parsed.disclosures[3]).not.toHaveProperty('key');
    expect(parsed.disclosures[3]?.value).toBe('DE');

    expect(parsed.claims).toEqual({
      iss: 'https://issuer.example',
      iat: 1_700_000_000,
      vct: 'urn:eudi:pid:1',
      given_name: 'Erika',
      family_name: 'Mustermann',
      address: { country: 'DE', locality: 'Berlin' },
      nationalities: ['DE'],
      cnf: { jwk: holder.publicJwk },
    });
  });

  it('refuses an SD-JWT with 10,000 disclosures before decoding them (disclosure amplification)', async () => {
    const issuer = await es256Key();
    const built = await buildSdJwt({ issuer });
    const many = Array.from({ length: 10_000 }, (_, i) => disclosure(`c${i}`, 1)).join('~');
    expect(failure(() => parseSdJwt(`${built.issuerJwt}~${many}~`, ref))).toMatchObject({ code: 'format.sd_jwt_malformed', detail: expect.stringContaining(`at most ${MAX_SD_JWT_DISCLOSURES}`) });
    const atLimit = Array.from({ length: MAX_SD_JWT_DISCLOSURES }, (_, i) => disclosure(`c${i}`, 1)).join('~');
    expect(parseSdJwt(`${built.issuerJwt}~${atLimit}~`, ref).disclosures).toHaveLength(MAX_SD_JWT_DISCLOSURES);
  });

  /** A chain of `levels` disclosures, each holding the next one's digest, under `keyLength`-character names. */
  async function nestedChain(levels: number, keyLength: number): Promise<string> {
    const issuer = await es256Key();
    const chain: string[] = [];
    let inner: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < levels; i++) {
      const d = disclosure(`${'k'.repeat(keyLength)}${i}`, inner);
      chain.push(d);
      inner = { _sd: [sdDigest(d, 'sha-256')] };
    }
    const issuerJwt = await signJwt(issuer, { iss: 'https://issuer.example', vct: 'urn:eudi:pid:1', ...inner }, { typ: 'dc+sd-jwt' });
    return `${issuerJwt}~${chain.join('~')}~`;
  }

  it('refuses disclosures nested 900 levels deep before resolving them (nested-disclosure amplification)', async () => {
    const hostile = await nestedChain(900, 300);
    expect(failure(() => parseSdJwt(hostile, ref))).toMatchObject({ code: 'format.sd_jwt_malformed', detail: expect.stringContaining(`at most ${MAX_DISCLOSURE_NESTING} levels`) });
  });

  it('resolves disclosures nested up to the limit', async () => {
    const parsed = parseSdJwt(await nestedChain(MAX_DISCLOSURE_NESTING, 4), ref);
    expect(parsed.disclosures).toHaveLength(MAX_DISCLOSURE_NESTING);
    expect(JSON.stringify(parsed.claims)).toContain('"leaf":true');
  });

  it('accepts an SD-JWT without KB-JWT (trailing ~) and without disclosures', async () => {
    const issuer = await es256Key();
    const built = await buildSdJwt({ issuer });
    expect(parseSdJwt(built.sdJwt, ref).kbJwt).toBeUndefined();
    const bare = parseSdJwt(`${built.issuerJwt}~`, ref);
    expect(bare.disclosures).toEqual([]);
    expect(bare.claims).toEqual({ iss: 'https://issuer.example', iat: 1_700_000_000, vct: 'urn:eudi:pid:1', address: { country: 'DE' }, nationalities: [] });
  });

  it.each(['sha-384', 'sha-512'])('computes digests with _sd_alg %s and drops _sd_alg from claims', async (alg) => {
    const issuer = await es256Key();
    const built = await buildSdJwt({ issuer, sdAlg: alg });
    const parsed = parseSdJwt(built.sdJwt, ref);
    expect(parsed.disclosures.map((d) => d.digest)).toEqual(built.disclosures.map((d) => sdDigest(d, alg)));
    expect(parsed.disclosures[0]?.digest).not.toBe(sdDigest(built.disclosures[0]!, 'sha-256'));
    expect(parsed.claims.given_name).toBe('Erika');
    expect(parsed.claims).not.toHaveProperty('_sd_alg');
  });

  it('strips what the resolver leaves of the SD-JWT mechanics: nested _sd_alg, {"...": ""} entries, also inside disclosed values', async () => {
    const issuer = await es256Key();
    const inner = disclosure('nested', { _sd_alg: 'sha-256', keep: [{ '...': '' }, { '...': '', other: 1 }, 2] });
    const jwt = await signJwt(issuer, { vct: 'x', _sd: [sdDigest(inner)], list: [{ '...': '' }, { a: { _sd_alg: 'sha-256', b: 1 } }, 3] });
    const parsed = parseSdJwt(`${jwt}~${inner}~`, ref);
    expect(parsed.claims).toEqual({ vct: 'x', list: [{ a: { b: 1 } }, 3], nested: { keep: [{ '...': '', other: 1 }, 2] } });
  });

  it('leaves an unreferenced disclosure in the list (verify decides) and out of the claims', async () => {
    const issuer = await es256Key();
    const built = await buildSdJwt({ issuer });
    const stray = disclosure('stray', 'x');
    const parsed = parseSdJwt(`${built.issuerJwt}~${[...built.disclosures, stray].join('~')}~`, ref);
    expect(parsed.disclosures).toHaveLength(5);
    expect(parsed.claims).not.toHaveProperty('stray');
  });

  it('rejects an unsupported _sd_alg', async () => {
    const issuer = await es256Key();
    const jwt = await signJwt(issuer, { vct: 'x', _sd_alg: 'md5' });
    expect(failure(() => parseSdJwt(`${jwt}~`, ref)).code).toBe('format.sd_jwt_malformed');
  });

  // The registry's names are lower case, as the verifier reads them; and a name that is only a
  // member of every object ("constructor") must not pass for an algorithm and reach the hash.
  it.each(['SHA-256', 'Sha-256', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])('rejects _sd_alg %s as unsupported, with a disclosure to hash', async (alg) => {
    const issuer = await es256Key();
    const d = disclosure('given_name', 'Erika');
    const jwt = await signJwt(issuer, { vct: 'x', _sd_alg: alg, _sd: [sdDigest(d)] });
    const error = failure(() => parseSdJwt(`${jwt}~${d}~`, ref));
    expect(error.code).toBe('format.sd_jwt_malformed');
    expect(error.message).toContain('unsupported _sd_alg');
  });

  it.each([
    ['a non-string', 42],
    ['a plain JWT without ~', 'HEADER.PAYLOAD.SIG'],
    ['a non-JWT issuer part', 'abc~'],
    ['an empty disclosure', 'JWT~~'],
    ['a disclosure with invalid base64url', 'JWT~@@@~'],
    ['a disclosure that is not JSON', `JWT~${b64u('nope')}~`],
    ['a disclosure that is a JSON string', `JWT~${b64u('"abc"')}~`],
    ['a disclosure with 4 elements', `JWT~${b64u('["s","k","v","x"]')}~`],
    ['a disclosure with a non-string name', `JWT~${b64u('["s",1,"v"]')}~`],
    ['a disclosure with a non-string salt', `JWT~${b64u('[1,"v"]')}~`],
    ['a malformed KB-JWT', 'JWT~a.b'],
  ])('rejects %s with format.sd_jwt_malformed and the presentation path', async (_label, input) => {
    const issuer = await es256Key();
    const jwt = await signJwt(issuer, { vct: 'x' });
    const value = typeof input === 'string' ? input.replace('JWT', jwt).replace('HEADER.PAYLOAD.SIG', jwt) : input;
    const error = failure(() => parseSdJwt(value, ref));
    expect(error.code).toBe('format.sd_jwt_malformed');
    expect(error.path).toEqual(['pid', 0]);
    expect(error.detail).not.toContain(jwt.slice(0, 12));
  });

  it('rejects a digest referenced twice (cycles, exponential expansion) before resolving', async () => {
    const issuer = await es256Key();
    // One disclosure referencing another twice: the building block of exponential fan-out.
    const inner = disclosure('leaf', 1);
    const fanOut = disclosure('twice', [{ '...': sdDigest(inner) }, { '...': sdDigest(inner) }]);
    const jwt = await signJwt(issuer, { vct: 'x', _sd: [sdDigest(fanOut)] });
    const error = failure(() => parseSdJwt(`${jwt}~${fanOut}~${inner}~`, ref));
    expect(error.detail).toMatch(/more than once/);
    // Referenced once from the payload and once from another disclosure.
    const a = disclosure('a', 1);
    const b = disclosure('b', { _sd: [sdDigest(a)] });
    const jwt2 = await signJwt(issuer, { vct: 'x', _sd: [sdDigest(a), sdDigest(b)] });
    expect(failure(() => parseSdJwt(`${jwt2}~${a}~${b}~`, ref)).code).toBe('format.sd_jwt_malformed');
    // Nested references that are each used once are fine.
    const jwt3 = await signJwt(issuer, { vct: 'x', _sd: [sdDigest(b)] });
    expect(parseSdJwt(`${jwt3}~${a}~${b}~`, ref).claims.b).toEqual({ a: 1 });
  });

  it('rejects an issuer JWT whose payload is not a JSON object', () => {
    const jwt = `${b64u('{"alg":"ES256"}')}.${b64u('[1]')}.c2ln`;
    expect(failure(() => parseSdJwt(`${jwt}~`, ref)).detail).toMatch(/payload/);
  });

  it('does not let a "__proto__" claim change the prototype of the claims', async () => {
    const issuer = await es256Key();
    const jwt = await signJwt(issuer, JSON.parse('{"vct":"x","nested":{"__proto__":{"polluted":true}}}') as Record<string, unknown>);
    const parsed = parseSdJwt(`${jwt}~`, ref);
    const nested = parsed.claims.nested as Record<string, unknown>;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
