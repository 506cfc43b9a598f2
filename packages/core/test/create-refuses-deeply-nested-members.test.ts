// A create body whose members nest deeper than the JSON limit (64 levels of objects and arrays)
// is refused with 400 request.invalid_body and a JSON pointer to where, never a 500 and never
// stored — also when the nesting hides inside a base64url transaction_data entry, whose decoded
// JSON is a document of its own, and also through the in-process createAuthorization().
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizerError, type AuthorizerEvent } from '@vp-authorizer/core';
import { DCQL_SD_JWT, createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
let events: AuthorizerEvent[];
afterEach(() => env?.close());
const start = async () => {
  events = [];
  env = await startAuthorizer({ onEvent: (e) => void events.push(e) });
};

/**
 * `levels` nested arrays as JSON text: 200,000 of them overflow any recursive encoder. A
 * transaction_data entry is base64url inside the create body, so it stays under the 64 KiB member
 * cap (20,000 levels) to reach the depth check rather than the size cap.
 */
const nestedText = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nested = (levels: number): unknown => JSON.parse(nestedText(levels));
/** One transaction_data entry whose `x` member holds `levels` nested arrays (the entry object is one level more). */
const deepEntry = (levels: number, credentialIds = false) =>
  Buffer.from(`{"type":"payment",${credentialIds ? '"credential_ids":["pid"],' : ''}"x":${nestedText(levels)}}`).toString('base64url');

type Problem = { type: string; status: number; errors: { pointer: string; detail: string }[] };

describe('create over HTTP', () => {
  it('a transaction_data entry nested 20,000 deep (under the size caps) answers 400 with the entry\'s pointer, with and without credential_ids', async () => {
    await start();
    for (const withIds of [false, true]) {
      const { res, json } = await createDcqlAuthorization(env.api, { transaction_data: [deepEntry(20_000, withIds)] });
      expect(res.status, `credential_ids: ${withIds}`).toBe(400);
      const problem = json as unknown as Problem;
      expect(problem.type).toBe('request.invalid_body');
      expect(problem.errors).toEqual([{ pointer: '/transaction_data/0', detail: expect.stringMatching(/nested deeper than 64/) }]);
    }
    expect(events).toEqual([]);
  });

  it('the same in responseTypeParameters.transaction_data', async () => {
    await start();
    const { res, json } = await createDcqlAuthorization(env.api, { responseTypeParameters: { transaction_data: [deepEntry(1, true), deepEntry(20_000, true)] } });
    expect(res.status).toBe(400);
    expect((json as unknown as Problem).errors).toEqual([{ pointer: '/responseTypeParameters/transaction_data/1', detail: expect.stringMatching(/nested deeper than 64/) }]);
  });

  it('an entry exactly at the limit is served; one level more is refused', async () => {
    await start();
    // The entry object is level 1, so its member may hold 63 levels.
    const { res } = await createDcqlAuthorization(env.api, { transaction_data: [deepEntry(63, true)] });
    expect(res.status).toBe(201);
    const over = await createDcqlAuthorization(env.api, { transaction_data: [deepEntry(64, true)] });
    expect(over.res.status).toBe(400);
  });

  it('a deep member of the body itself answers 400 with a pointer to where the limit is crossed', async () => {
    await start();
    // Written as text: no encoder of ours could produce it.
    const body = `{"responseMode":"direct_post.jwt","query":${JSON.stringify({ type: 'DCQL', dcql: DCQL_SD_JWT })},"walletMetadata":{"vp_formats_supported":${nestedText(200_000)}}}`;
    const res = await env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as Problem;
    expect(problem.type).toBe('request.invalid_body');
    // The body is level 1, walletMetadata 2, the outer array of vp_formats_supported 3: the first
    // level past 64 is 62 arrays further down.
    expect(problem.errors).toEqual([{ pointer: `/walletMetadata/vp_formats_supported${'/0'.repeat(62)}`, detail: expect.stringMatching(/nested deeper than 64/) }]);
    expect(events).toEqual([]);
  });
});

describe('create in process (authorizer.createAuthorization)', () => {
  const base = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } };
  const cases: [string, Record<string, unknown>, string][] = [
    ['walletMetadata', { ...base, walletMetadata: { vp_formats_supported: nested(200_000) } }, '/walletMetadata/vp_formats_supported/0'],
    ['DCQL meta', { ...base, query: { type: 'DCQL', dcql: { credentials: [{ ...DCQL_SD_JWT.credentials[0], meta: { vct_values: ['urn:eudi:pid:1'], extra: nested(200_000) } }] } } }, '/query/dcql/credentials/0/meta/extra/0'],
    ['verifier_info data', { ...base, responseTypeParameters: { verifier_info: [{ format: 'jwt', data: { deep: nested(200_000) } }] } }, '/responseTypeParameters/verifier_info/0/data/deep/0'],
    ['transaction_data', { ...base, transaction_data: [deepEntry(20_000)] }, '/transaction_data/0'],
  ];
  for (const [name, body, pointer] of cases) {
    it(`refuses a ${name} nested past the depth limit with request.invalid_body and its pointer, storing nothing`, async () => {
      await start();
      const error = await env.authorizer.createAuthorization('main', body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthorizerError);
      expect(error).toMatchObject({ code: 'request.invalid_body', status: 400 });
      const [first] = (error as AuthorizerError & { errors: { pointer: string }[] }).errors;
      expect(first!.pointer.startsWith(pointer)).toBe(true);
      expect(events).toEqual([]);
    });
  }
});
