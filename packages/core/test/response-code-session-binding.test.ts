import { afterEach, describe, expect, it } from 'vitest';
import { finishWithResponseCode, resolveCode } from './__fixtures__/finish-with-response-code.js';
import { startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

describe('response code bound to the RP session (OpenID4VP 1.0 §13.3)', () => {
  it('resolves when authorization_id names the authorization the code was issued for', async () => {
    env = await startAuthorizer();
    const { id, code } = await finishWithResponseCode(env.api);
    const res = await resolveCode(env.api, { response_code: code, authorization_id: id });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it("a code injected into another session (another authorization's id) is refused without revealing its authorization, and cannot be redeemed afterwards", async () => {
    env = await startAuthorizer();
    const attackers = await finishWithResponseCode(env.api);
    const victims = await finishWithResponseCode(env.api);
    // The victim's browser lands on the RP callback with the attacker's code.
    const res = await resolveCode(env.api, { response_code: attackers.code, authorization_id: victims.id });
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(JSON.parse(body)).toMatchObject({ type: 'response_code.authorization_mismatch', status: 400 });
    expect(body).not.toContain(attackers.id);
    expect(body).not.toContain(attackers.code);
    // Consumed on mismatch: the attacker cannot redeem it in the session it belongs to.
    expect((await resolveCode(env.api, { response_code: attackers.code, authorization_id: attackers.id })).status).toBe(404);
    expect((await resolveCode(env.api, { response_code: attackers.code })).status).toBe(404);
    // The victim's own code is untouched.
    expect((await resolveCode(env.api, { response_code: victims.code, authorization_id: victims.id })).status).toBe(200);
  });

  it('an unknown code with an expected id is still 404, not a mismatch (no oracle for ids)', async () => {
    env = await startAuthorizer();
    const { id } = await finishWithResponseCode(env.api);
    const res = await resolveCode(env.api, { response_code: 'does-not-exist', authorization_id: id });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: 'response_code.not_found' });
  });

  it('without authorization_id the hosted-API body keeps working (default config)', async () => {
    env = await startAuthorizer();
    const { id, code } = await finishWithResponseCode(env.api);
    const res = await resolveCode(env.api, { response_code: code });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('requireResponseCodeAuthorizationId: a resolve without authorization_id is 400 with a pointer and leaves the code usable', async () => {
    env = await startAuthorizer({ instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback', requireResponseCodeAuthorizationId: true } } } });
    const { id, code } = await finishWithResponseCode(env.api);
    const refused = await resolveCode(env.api, { response_code: code });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'request.invalid_body', errors: [{ pointer: '/authorization_id' }] });
    expect((await resolveCode(env.api, { response_code: code, authorization_id: id })).status).toBe(200);
  });

  it('a malformed authorization_id is 400 with its pointer', async () => {
    env = await startAuthorizer();
    const { code } = await finishWithResponseCode(env.api);
    const res = await resolveCode(env.api, { response_code: code, authorization_id: 7 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'request.invalid_body', errors: [{ pointer: '/authorization_id' }] });
  });

  it('the typed method takes {expectedAuthorizationId} and refuses a mismatch the same way', async () => {
    env = await startAuthorizer();
    const first = await finishWithResponseCode(env.api);
    const second = await finishWithResponseCode(env.api);
    await expect(env.authorizer.resolveResponseCode('main', first.code, { expectedAuthorizationId: second.id })).rejects.toMatchObject({ code: 'response_code.authorization_mismatch' });
    await expect(env.authorizer.resolveResponseCode('main', second.code, { expectedAuthorizationId: second.id })).resolves.toEqual({ authorization_id: second.id, status: 'authorized' });
  });

  it('50 parallel resolves with the right expected id: exactly one 200, 49 × 404', async () => {
    env = await startAuthorizer();
    const { id, code } = await finishWithResponseCode(env.api);
    const answers = await Promise.all(Array.from({ length: 50 }, () => resolveCode(env.api, { response_code: code, authorization_id: id })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 404)).toHaveLength(49);
  });
});
