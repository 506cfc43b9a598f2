// Every log line of a full flow, failures included, at debug level: each is an event of the
// LOG_EVENTS table with exactly its fields, and none carries a secret the flow handled.
import { StoreUnavailableError, LOG_EVENTS, memoryStore, type AuthorizerStore, type LogEventName } from '@vp-authorizer/core';
import { createTestWallet, type ReceivedRequest } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type E2eEnvironment, PID_CLAIMS, PID_VCT, pidQuery, responseCodeOf, startE2eEnvironment } from './e2e-harness.js';

interface Line {
  level: string;
  fields: Record<string, unknown>;
  message?: string;
}
const lines: Line[] = [];
const at = (level: string) => (fields: Record<string, unknown>, message?: string) => void lines.push({ level, fields: structuredClone(fields), ...(message ? { message } : {}) });

// A real memory store; `failNext` makes the next call of one operation fail as an outage would.
const inner = memoryStore({ sweepIntervalMs: 0 });
const failNext = new Set<keyof AuthorizerStore>();
const faulty =
  <K extends keyof AuthorizerStore>(name: K) =>
  (...args: unknown[]): Promise<never> => {
    if (failNext.delete(name)) return Promise.reject(new StoreUnavailableError());
    return (inner[name] as (...a: unknown[]) => Promise<never>)(...args);
  };
const store = Object.fromEntries((['create', 'get', 'compareAndSet', 'listDueForExpiry', 'put', 'peek', 'consume', 'ping'] as const).map((name) => [name, faulty(name)])) as unknown as AuthorizerStore;

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment({ authorizer: { store, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } } });
});
afterAll(async () => {
  await env.close();
  inner.close();
});

const haipPid = { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } };

describe('logs of a full flow, failures included', () => {
  it('are events of the table with their declared fields and carry none of the secrets handled', async () => {
    const secrets: string[] = [API_KEY];
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });

    /** Creates an authorization, fetches its request and records what in them is secret. */
    const start = async (): Promise<{ id: string; request: ReceivedRequest }> => {
      const created = await env.rp.create(haipPid);
      const record = await inner.get('e2e', created.authorizationId);
      const request = await wallet.receive(created.authorizeUrl as string, { verifierTrustAnchors: [env.verifierRootPem] });
      secrets.push(created.nonce, String(record!.encryptionKey!.privateJwk.d), ...(record!.request.state ? [record!.request.state] : []));
      return { id: created.authorizationId, request };
    };

    // 1. Authorized, the code resolved, then resolved again (404).
    const ok = await start();
    const answered = await wallet.respond(ok.request);
    expect(answered.status).toBe(200);
    const code = responseCodeOf(answered.body);
    secrets.push(code, answered.prepared.jwe!, ...presentationParts(answered.prepared.payload));
    expect((await env.rp.resolve(code)).status).toBe(200);
    expect((await env.rp.resolve(code)).status).toBe(404);

    // 2. The same response replayed; a guessed response code; a wrong API key.
    expect((await wallet.submit(answered.prepared)).status).toBe(400);
    const guessed = 'g'.repeat(43);
    secrets.push(guessed);
    expect((await env.rp.resolve(guessed)).status).toBe(404);
    const wrongKey = 'wrong-api-key-0123456789abcdef';
    secrets.push(wrongKey);
    const refused = await fetch(`${env.baseUrl}/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { authorization: `Bearer ${wrongKey}`, 'content-type': 'application/json' }, body: JSON.stringify(haipPid) });
    expect(refused.status).toBe(401);

    // 3. A presentation bound to another nonce (rejected by the verifier).
    const tampered = await start();
    const rejected = await wallet.respond(tampered.request, { presentations: { pid: [{ credential: pid, tamper: { nonce: 'not-the-request-nonce' } }] } });
    expect(rejected.status).toBe(400);
    secrets.push(rejected.prepared.jwe!, ...presentationParts(rejected.prepared.payload));

    // 4. The store fails while the response is processed (after the claim): the wallet may retry.
    const outage = await start();
    const prepared = await wallet.createResponse(outage.request);
    secrets.push(prepared.jwe!, ...presentationParts(prepared.payload));
    failNext.add('put');
    expect((await wallet.submit(prepared)).status).toBe(503);
    const retried = await wallet.submit(prepared);
    expect(retried.status).toBe(200);
    secrets.push(responseCodeOf(retried.body));

    // 5. A code presented for another authorization is burnt.
    const other = await start();
    const otherAnswer = await wallet.respond(other.request);
    const otherCode = responseCodeOf(otherAnswer.body);
    secrets.push(otherCode, otherAnswer.prepared.jwe!);
    const mismatch = await env.rp.call('POST', '/openid4/vp/v1_0/response-code/resolve', { response_code: otherCode, authorization_id: ok.id });
    expect(mismatch.status).toBe(400);

    // The signing key of the instance.
    secrets.push(...privateParts(env.verifierSigning.privateKey));

    // What was logged: every failure path above left its line.
    const events = lines.map((l) => l.fields.event);
    for (const expected of ['request.handled', 'request.refused', 'response.store_failed', 'response_code.authorization_mismatch'] as const) expect(events).toContain(expected);
    expect(lines.find((l) => l.fields.event === 'request.refused' && l.fields.code === 'auth.unauthorized')).toBeDefined();

    for (const line of lines) {
      const spec = LOG_EVENTS[line.fields.event as LogEventName];
      expect(spec, JSON.stringify(line)).toBeDefined();
      expect(line.level).toBe(spec.level);
      expect(line.message).toBe(spec.message);
      expect(Object.keys(line.fields).sort()).toEqual(['event', ...Object.keys(spec.fields)].sort());
    }

    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const leaked = secrets.filter((secret) => secret.length >= 16 && fragments(secret).some((fragment) => text.includes(fragment)));
    expect(leaked).toEqual([]);
    // The search would have found them: the secrets are long enough to be searched.
    expect(secrets.filter((s) => s.length < 16)).toEqual([]);
  });
});

/** The secret itself and 16-character slices of it: a truncated secret is still a leak. */
function fragments(secret: string): string[] {
  const out = [secret];
  for (let i = 0; i + 16 <= secret.length; i += 16) out.push(secret.slice(i, i + 16));
  return out;
}

/** The vp_token's presentations (SD-JWT with disclosures and KB-JWT) as sent, and their parts. */
function presentationParts(payload: Record<string, unknown>): string[] {
  const vpToken = payload.vp_token as Record<string, string[]>;
  return Object.values(vpToken)
    .flat()
    .flatMap((presentation) => [presentation, ...presentation.split('~').filter((part) => part.length >= 16)]);
}

function privateParts(key: JsonWebKey | string): string[] {
  if (typeof key !== 'string') return [String(key.d)];
  return key.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'));
}
