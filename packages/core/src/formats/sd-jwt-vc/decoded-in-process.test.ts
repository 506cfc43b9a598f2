import { describe, expect, it } from 'vitest';
import { decodedInProcess } from './decoded-in-process.js';
import { parseSdJwt } from './parse-sd-jwt.js';
import { buildSdJwt, es256Key } from '../shared/test-fixtures.js';

const ref = { path: ['pid', 0], queryId: 'pid', index: 0, format: 'dc+sd-jwt' };

describe('decodedInProcess', () => {
  it('hands an in-process verifier what the parser decoded, for the very presentation object it returned', async () => {
    const parsed = parseSdJwt((await buildSdJwt({ issuer: await es256Key(), holder: await es256Key(), kb: true })).sdJwt, ref);
    const decoded = decodedInProcess(parsed);
    expect(decoded?.raw).toBe(parsed.raw);
    expect(decoded?.issuerJwt).toEqual(parsed.issuerJwt);
    expect(decoded?.disclosures).toEqual(parsed.disclosures);
    expect(decoded?.kbJwt).toEqual(parsed.kbJwt);
  });

  it('keeps its own copy: a client editing the presentation\'s decoded objects in place changes nothing the verifier reads', async () => {
    const parsed = parseSdJwt((await buildSdJwt({ issuer: await es256Key(), holder: await es256Key(), kb: true })).sdJwt, ref);
    const cnf = structuredClone(parsed.issuerJwt.payload.cnf);
    const firstValue = structuredClone(parsed.disclosures[0]!.value);
    (parsed.issuerJwt.payload as Record<string, unknown>).cnf = { jwk: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' } };
    parsed.disclosures[0]!.value = 'edited';
    (parsed.kbJwt!.payload as Record<string, unknown>).nonce = 'edited';
    const decoded = decodedInProcess(parsed);
    expect(decoded?.issuerJwt.payload.cnf).toEqual(cnf);
    expect(decoded?.disclosures[0]!.value).toEqual(firstValue);
    expect(decoded?.kbJwt?.payload.nonce).not.toBe('edited');
  });

  it('hands out a frozen decoding: code that asks for it cannot edit what the verifier reads', async () => {
    const parsed = parseSdJwt((await buildSdJwt({ issuer: await es256Key(), holder: await es256Key(), kb: true })).sdJwt, ref);
    const decoded = decodedInProcess(parsed)!;
    expect(() => {
      (decoded.kbJwt!.payload as Record<string, unknown>).nonce = 'replayed';
    }).toThrow(TypeError);
    expect(() => {
      (decoded.issuerJwt.payload as Record<string, unknown>).exp = 9_999_999_999;
    }).toThrow(TypeError);
    expect(() => (decoded.disclosures as unknown[]).push({})).toThrow(TypeError);
    expect(Object.isFrozen(decoded.disclosures[0])).toBe(true);
    expect(decodedInProcess(parsed)?.kbJwt?.payload.nonce).toBe(parsed.kbJwt?.payload.nonce);
  });

  it('knows nothing of a presentation built or deserialised elsewhere, nor of one whose raw changed since', async () => {
    const built = await buildSdJwt({ issuer: await es256Key(), holder: await es256Key(), kb: true });
    const parsed = parseSdJwt(built.sdJwt, ref);
    // A remote service's input: the same structure, as JSON.
    expect(decodedInProcess(JSON.parse(JSON.stringify(parsed)))).toBeUndefined();
    expect(decodedInProcess({ ...parsed })).toBeUndefined();
    parsed.raw = `${built.issuerJwt}~`;
    expect(decodedInProcess(parsed)).toBeUndefined();
  });

  it('keeps what it decoded when the presentation\'s members are replaced afterwards', async () => {
    const parsed = parseSdJwt((await buildSdJwt({ issuer: await es256Key(), holder: await es256Key(), kb: true })).sdJwt, ref);
    const issuerJwt = parsed.issuerJwt;
    parsed.issuerJwt = { ...issuerJwt, payload: { iss: 'https://elsewhere.example' } };
    parsed.disclosures = [];
    expect(decodedInProcess(parsed)?.issuerJwt).toEqual(issuerJwt);
    expect(decodedInProcess(parsed)?.disclosures.length).toBeGreaterThan(0);
  });
});
