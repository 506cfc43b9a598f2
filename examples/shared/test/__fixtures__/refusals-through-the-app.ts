// The refusals every example app proves through its own routes (POST /verifications and
// POST /verifications/:id/resolve), whatever framework serves them.
import { expect } from 'vitest';
import { answerWithTestPid, createTestIssuer } from '@vp-authorizer/testing';

export interface AppUnderTest {
  /** The app's origin (http://127.0.0.1:<port>). */
  origin: string;
  /** Where the app mounts the authorizer's HTTP API. */
  authorizerUrl: string;
  apiKey: string;
}

/** A refusal as the app's client sees it: a 4xx (never a 5xx) with a stable error type. */
export function expectStableRefusal(response: { status: number; body: Record<string, unknown> }): void {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(String(response.body.type)).toMatch(/^[a-z_]+\.[a-z_.]+$/);
}

export async function postJson(url: string, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Starts a verification through the app, answers it with a PID from an issuer the app does not
 * trust (refused with trusted_issuer.untrusted), then resolves it with a made-up response code
 * (a stable refusal). Returns the authorization's id.
 */
export async function expectUntrustedIssuerAndMadeUpCodeRefused(app: AppUnderTest): Promise<string> {
  const started = await postJson(`${app.origin}/verifications`);
  const { answer } = await answerWithTestPid(String(started.body.authorizeUrl), { authorizerUrl: app.authorizerUrl, apiKey: app.apiKey, issuer: await createTestIssuer() });
  expect(answer.status).toBe(400);
  expect(JSON.stringify(answer.body)).toContain('trusted_issuer.untrusted');

  // A typed method's refusal reaches the app's client as the 4xx the HTTP API gives, not a 500.
  const id = String(started.body.authorizationId);
  expectStableRefusal(await postJson(`${app.origin}/verifications/${id}/resolve`, { response_code: 'made-up-code' }));
  return id;
}
