import { type AnnexCGetRequest, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../demo.mjs';

/** A browser stand-in: one cookie jar (the relying party's session), JSON in and out. */
function browser(origin: string) {
  let cookie = '';
  const call = async function call<T = Record<string, any>>(path: string, body?: unknown, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await fetch(new URL(path, origin), {
      method: body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      ...init,
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T, headers: response.headers };
  };
  return Object.assign(call, { cookie: () => cookie });
}

type Call = ReturnType<typeof browser>;

/** Verifier page → test wallet page → answer; resolves to the wallet's outcome and the authorization id. */
async function askAndAnswer(call: Call, ask: string, choice: string) {
  const created = await call('/demo/authorizations', { ask, purpose: 'Open an account' });
  expect(created.status).toBe(201);
  const opened = await call('/demo/wallet/open', { authorizeUrl: created.body.authorizeUrl });
  expect(opened.status).toBe(200);
  const answered = await call('/demo/wallet/answer', { handle: opened.body.handle, choice });
  expect(answered.status).toBe(200);
  return { id: created.body.authorizationId as string, created: created.body, opened: opened.body, answered: answered.body };
}

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, env: {} }); // the embedded defaults, whatever the test runner's environment
});
afterAll(() => demo?.close());

describe('the demo verifier (relying party backend) and test wallet', () => {
  it('serves the verifier page, the wallet page and their assets under a strict CSP', async () => {
    for (const [path, text] of [['/', 'Verify your identity'], ['/wallet', 'Test wallet'], ['/assets/verifier.js', 'EventSource'], ['/assets/style.css', '.qr'], ['/assets/jsqr.js', 'jsQR']] as const) {
      const res = await fetch(`${demo.origin}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(text);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('names an inline icon on both pages (no favicon request to 404) and serves the asks the verifier page proposes purposes from', async () => {
    const verifier = await (await fetch(`${demo.origin}/`)).text();
    const wallet = await (await fetch(`${demo.origin}/wallet`)).text();
    for (const page of [verifier, wallet]) expect(page).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    const asks = await fetch(`${demo.origin}/assets/asks.js`);
    expect(asks.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const { ASKS, MAX_PURPOSE_LENGTH } = (await import(new URL('../asks.mjs', import.meta.url).href)) as { ASKS: Record<'pid' | 'mdl' | 'either' | 'both', { purpose: string }>; MAX_PURPOSE_LENGTH: number };
    expect(await asks.text()).toContain(ASKS.mdl.purpose);
    // Every proposed purpose fits what the backend accepts.
    for (const ask of Object.values(ASKS)) expect(ask.purpose.length).toBeLessThanOrEqual(MAX_PURPOSE_LENGTH);
  });

  it('asks for a PID, renders the request as a QR code, and authorizes it; the redirect resolves the code for this session', async () => {
    const call = browser(demo.origin);
    const { id, created, opened, answered } = await askAndAnswer(call, 'pid', 'valid');
    expect(created.authorizeUrl).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);
    expect(created.qrSvg).toMatch(/^<svg [^>]*viewBox/);
    expect(opened).toMatchObject({
      verifier: { name: 'vp-authorizer demo verifier', certificateSubject: 'CN=vp-authorizer demo verifier', verified: true },
      purpose: 'Open an account',
      credentials: [{ id: 'pid', format: 'dc+sd-jwt', type: 'urn:eudi:pid:1' }],
      satisfiable: true,
    });
    expect(answered).toMatchObject({ accepted: true, httpStatus: 200 });
    expect(answered.redirectUri).toContain(`${demo.origin}/demo/callback?response_code=`);

    const back = await call(answered.redirectUri);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/?authorization=${id}`);
    const result = await call(`/demo/authorizations/${id}/result`);
    expect(result.body.status).toBe('authorized');
    expect(result.body.credentials[0].claims).toMatchObject({ given_name: 'Erika', birthdate: '1964-08-12', address: { locality: 'Köln' } });
    expect(result.body.policyResults.every((r: { error?: unknown }) => !r.error)).toBe(true);
    // The code was used once: the same redirect is refused now, and says so with a notice code.
    const again = await call(answered.redirectUri);
    expect(again.headers.get('location')).toBe('/?notice=wrong-session');
  });

  it('a response code the authorizer refuses comes back as a notice code, not as text for the page', async () => {
    const call = browser(demo.origin);
    const created = await call('/demo/authorizations', { ask: 'pid' });
    expect(created.status).toBe(201);
    const back = await call('/demo/callback?response_code=not-a-code%20%E2%80%94%20call%20%2B1-555-0100');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/?notice=code-refused');
    // A browser that started nothing gets the other fixed code.
    expect((await browser(demo.origin)('/demo/callback?response_code=x')).headers.get('location')).toBe('/?notice=wrong-session');
  });

  it('asks for an mDL (mdoc) and authorizes it: claims flat, namespaces beside them', async () => {
    const call = browser(demo.origin);
    const { id, answered } = await askAndAnswer(call, 'mdl', 'valid');
    expect(answered.accepted).toBe(true);
    const result = await call(`/demo/authorizations/${id}/result`);
    expect(result.body).toMatchObject({ status: 'authorized', ask: 'mdl' });
    const [mdl] = result.body.credentials;
    expect(mdl.claims).toMatchObject({ given_name: 'Erika', birth_date: '1964-08-12', document_number: 'T22000129', driving_privileges: [{ vehicle_category_code: 'B' }] });
    expect(Object.keys(mdl.namespaces)).toEqual(['org.iso.18013.5.1']);
  });

  it('answers "either" with one credential and "both" with two', async () => {
    const call = browser(demo.origin);
    const either = await askAndAnswer(call, 'either', 'valid');
    expect(either.opened.alternatives).toBe(true);
    expect((await call(`/demo/authorizations/${either.id}/result`)).body.credentials).toHaveLength(1);
    const both = await askAndAnswer(call, 'both', 'valid');
    const formats = (await call(`/demo/authorizations/${both.id}/result`)).body.credentials.map((c: { format: string }) => c.format);
    expect(formats.sort()).toEqual(['dc+sd-jwt', 'mso_mdoc']);
  });

  it.each([
    ['pid', 'untrusted-issuer', 'trusted_issuer.untrusted', 'trusted-issuer-untrusted'],
    ['mdl', 'untrusted-issuer', 'trusted_issuer.untrusted', 'trusted-issuer-untrusted'],
    ['pid', 'expired', 'validity.expired', undefined],
    ['mdl', 'expired', 'validity.expired', undefined],
    ['pid', 'wrong-nonce', 'holder_binding.nonce_mismatch', undefined],
    ['mdl', 'wrong-nonce', 'mdoc.device_signature_invalid', 'proof-verification-failed'],
  ])('refuses %s presented as %s, the root cause first (%s)', async (ask, choice, code, vidosType) => {
    const call = browser(demo.origin);
    const { id, answered } = await askAndAnswer(call, ask, choice);
    expect(answered).toMatchObject({ accepted: false, httpStatus: 400, error: 'invalid_request' });
    expect(answered.errorDescription).toContain(code);
    const result = await call(`/demo/authorizations/${id}/result`);
    expect(result.body.status).toBe('rejected');
    expect(result.body.credentials).toEqual([]);
    expect(result.body.policyResults[0].error.code).toBe(code);
    if (vidosType) expect(result.body.policyResults[0].error.vidosType).toBe(vidosType);
  });

  it('a declined request ends rejected with wallet.access_denied, not pending', async () => {
    const call = browser(demo.origin);
    const { id, answered } = await askAndAnswer(call, 'mdl', 'decline');
    expect(answered).toMatchObject({ declined: true, accepted: false });
    const result = await call(`/demo/authorizations/${id}/result`);
    expect(result.body.status).toBe('rejected');
    expect(result.body.policyResults[0].error.code).toBe('wallet.access_denied');
  });

  it('streams the status to the page through its own backend (the page never holds the API key)', async () => {
    const call = browser(demo.origin);
    const created = await call('/demo/authorizations', { ask: 'pid' });
    const stream = await fetch(`${demo.origin}/demo/authorizations/${created.body.authorizationId}/events`, { headers: { cookie: call.cookie() } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: status\ndata: {"status":"created"}');
    expect(demo.eventStreamStats().streams).toBe(1);
    // The page going away releases the authorizer's stream, not only the relay.
    await reader.cancel();
    await expect.poll(() => demo.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
    // Without the session that created it, nothing streams.
    const stranger = await fetch(`${demo.origin}/demo/authorizations/${created.body.authorizationId}/events`);
    expect(stranger.status).toBe(404);
  });

  it('every failure answers a readable message with a 4xx, never a bare 500', async () => {
    const call = browser(demo.origin);
    expect(await call('/demo/authorizations', { ask: 'passport' })).toMatchObject({ status: 400, body: { message: expect.stringContaining('Choose what to ask for') } });
    expect(await call('/demo/authorizations', { ask: 'pid', purpose: 'x'.repeat(301) })).toMatchObject({ status: 400, body: { message: expect.stringContaining('300 characters') } });
    expect(await call('/demo/authorizations', '{not json')).toMatchObject({ status: 400, body: { message: 'The request body is not JSON.' } });
    expect(await call('/demo/wallet/open', { authorizeUrl: 'hello' })).toMatchObject({ status: 400, body: { message: expect.stringContaining('openid4vp://') } });
    const unknownRequest = await call('/demo/wallet/open', { authorizeUrl: `openid4vp://?client_id=x509_hash%3Aabc&request_uri=${encodeURIComponent(`${demo.origin}/authz/openid4/vp/v1_0/authorizations/nope/jwt`)}` });
    expect(unknownRequest).toMatchObject({ status: 400, body: { message: expect.stringContaining('could not read this request') } });
    expect(await call('/demo/wallet/answer', { handle: 'gone', choice: 'valid' })).toMatchObject({ status: 404, body: { message: expect.stringContaining('no longer open') } });
    expect(await call('/demo/wallet/dc-api', { origin: demo.origin })).toMatchObject({ status: 400, body: { message: expect.stringContaining('{request: {protocol, data}, origin}') } });
    expect(await call('/demo/nothing-here')).toMatchObject({ status: 404, body: { message: expect.stringContaining('Nothing at') } });
    // Another browser's authorization is not readable from this session.
    const mine = await call('/demo/authorizations', { ask: 'pid' });
    const stranger = browser(demo.origin);
    expect(await stranger(`/demo/authorizations/${mine.body.authorizationId}/result`)).toMatchObject({ status: 404, body: { message: expect.stringContaining('not started in this browser session') } });
  });

  it('the API refuses calls without the printed key', async () => {
    const res = await fetch(`${demo.origin}/authz/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('the demo over the Digital Credentials API', () => {
  let dc: RunningDemo;
  let wallet: Awaited<ReturnType<typeof createTestWallet>>;
  beforeAll(async () => {
    // A wallet of our own, from an issuer the demo is told to trust through the environment.
    const issuer = await createTestIssuer({ commonName: 'DC API test issuer' });
    wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12', address: { locality: 'Köln' } } });
    await wallet.addMdoc(issuer, { docType: 'org.iso.18013.5.1.mDL', namespaces: { 'org.iso.18013.5.1': { given_name: 'Erika', family_name: 'Mustermann', birth_date: '1964-08-12', document_number: 'T22000129', driving_privileges: [] } } });
    dc = await startDemo({ port: 0, env: { ISSUER_ROOT_PEM: issuer.rootCertificatePem } });
  });
  afterAll(() => dc?.close());

  it.each(['dc-api-signed', 'dc-api-unsigned'])('%s: the page hands the browser the request and the backend the answer', async (flow) => {
    const call = browser(dc.origin);
    const created = await call('/demo/authorizations', { ask: 'pid', flow, purpose: 'Over the DC API' });
    expect(created.status).toBe(201);
    expect(created.body.digitalCredentialGetRequest.protocol).toBe(flow === 'dc-api-signed' ? 'openid4vp-v1-signed' : 'openid4vp-v1-unsigned');
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(created.body.digitalCredentialGetRequest, { origin: dc.origin, verifierTrustAnchors: [dc.trustAnchorPem] });
    const answered = await call(`/demo/authorizations/${created.body.authorizationId}/dc-api`, { data: digitalCredentialGetResponse });
    expect(answered).toMatchObject({ status: 200, body: { status: 'authorized' } });
    const result = await call(`/demo/authorizations/${created.body.authorizationId}/result`);
    expect(result.body.credentials[0].claims.given_name).toBe('Erika');
  });

  it('an mdoc ask offers OpenID4VP and org-iso-mdoc in one request list; an Annex C answer is authorized and the result names its protocol', async () => {
    const call = browser(dc.origin);
    const created = await call('/demo/authorizations', { ask: 'mdl', flow: 'dc-api-signed', purpose: 'Over the DC API' });
    expect(created.status).toBe(201);
    const requests = created.body.digitalCredentialGetRequests as AnnexCGetRequest[];
    expect(requests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc']);
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(requests[1]!, { origin: dc.origin });
    const answered = await call(`/demo/authorizations/${created.body.authorizationId}/dc-api`, digitalCredentialGetResponse);
    expect(answered).toMatchObject({ status: 200, body: { status: 'authorized', protocol: 'org-iso-mdoc' } });
    const result = await call(`/demo/authorizations/${created.body.authorizationId}/result`);
    expect(result.body).toMatchObject({ status: 'authorized', protocol: 'org-iso-mdoc' });
    expect(result.body.credentials[0].claims.document_number).toBe('T22000129');
  });
});

describe('the demo configured from the environment', () => {
  const KEY = 'demo-env-key-0123456789';
  let configured: RunningDemo;
  beforeAll(async () => {
    configured = await startDemo({
      port: 0,
      env: { AUTHZ_REDIRECT_URI: 'https://rp.example/after-wallet', AUTHZ_API_KEY: KEY, EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: 'http://localhost:5173' },
    });
  });
  afterAll(() => configured?.close());

  it('sends the wallet to AUTHZ_REDIRECT_URI, and the code resolves with AUTHZ_API_KEY', async () => {
    const call = browser(configured.origin);
    const { id, answered } = await askAndAnswer(call, 'pid', 'valid');
    const redirect = new URL(answered.redirectUri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://rp.example/after-wallet');
    const resolved = await fetch(`${configured.origin}/authz/openid4/vp/v1_0/response-code/resolve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ response_code: redirect.searchParams.get('response_code') }),
    });
    expect(await resolved.json()).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('answers CORS preflights for EXPRESS_CORS_ORIGIN on the API', async () => {
    const res = await fetch(`${configured.origin}/authz/openid4/vp/v1_0/authorizations`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toContain('Origin');
    const refused = await fetch(`${configured.origin}/authz/health`, { headers: { origin: 'https://elsewhere.example' } });
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
