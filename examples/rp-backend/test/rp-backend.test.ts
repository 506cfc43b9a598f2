import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestIssuer, createTestWallet, type TestIssuer } from '@vp-authorizer/testing';
import { createRpBackend, rpBackendOptionsFromEnv } from '../src/index.js';

const API_KEY = 'rp-backend-example-key-0001';
const PID_VCT = 'urn:eudi:pid:1';

/** A node:http server on 127.0.0.1 with a random port. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const close = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

let authorizer: Authorizer;
let authorizerServer: Server;
let rpServer: Server;
let rpUrl: string;
let issuer: TestIssuer;
let verifierRootPem: string;

beforeAll(async () => {
  issuer = await createTestIssuer();
  // The authorizer as a separate service, reached only over HTTP (its fetch handler behind node:http).
  authorizerServer = createServer((req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', authorizerUrl), {
      method: req.method ?? 'GET',
      headers: Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    void authorizer.fetch(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  const authorizerUrl = await listen(authorizerServer);
  rpServer = createServer((req, res) => handler(req, res));
  rpUrl = await listen(rpServer);

  const dev = await generateDevSigningKey();
  verifierRootPem = dev.rootCertificatePem;
  authorizer = createAuthorizer({
    publicBaseUrl: authorizerUrl,
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'rp',
        apiKeys: [API_KEY],
        signing: dev.signing,
        // Real verification: issuer signature, key binding, nonce and audience, trusted issuer.
        validator: localValidator({ trustedIssuers: [issuer.rootCertificatePem] }),
        verifier: localVerifier({ trustAnchors: [issuer.rootCertificatePem], outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
  await authorizer.ready();
  // Configured as an operator would: the authorizer's URL and key, and this backend's callback.
  const handler = createRpBackend(
    rpBackendOptionsFromEnv({ PUBLIC_BASE_URL: authorizerUrl, AUTHZ_API_KEY: API_KEY, AUTHZ_REDIRECT_URI: `${rpUrl}/callback` }, { vct: PID_VCT }),
  );
});

afterAll(async () => {
  await Promise.all([rpServer && close(rpServer), authorizerServer && close(authorizerServer)]);
  await authorizer?.close();
});

/** A browser session at the RP: keeps the session cookie. */
function browser() {
  let cookie = '';
  return async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${rpUrl}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}) } });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';', 1)[0]!;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

describe('examples/rp-backend: a relying party calling the authorizer with the generated client', () => {
  it('logs a user in: create, poll, wallet presents, resolve the response code, read the claims', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1984-01-26' } });
    const user = browser();

    const login = await user('/login', { method: 'POST' });
    expect(login.status).toBe(200);
    expect(String(login.body.authorizeUrl)).toMatch(/^openid4vp:/);
    expect(await user('/login/status')).toEqual({ status: 200, body: { status: 'created' } });

    const request = await wallet.receive(String(login.body.authorizeUrl), { verifierTrustAnchors: [verifierRootPem] });
    expect(await user('/login/status')).toEqual({ status: 200, body: { status: 'pending' } });
    const answer = await wallet.respond(request);
    expect(answer.status).toBe(200);
    const redirect = new URL((answer.body as { redirect_uri: string }).redirect_uri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${rpUrl}/callback`);
    expect(await user('/login/status')).toEqual({ status: 200, body: { status: 'authorized' } });

    const done = await user(`/callback${redirect.search}`);
    expect(done).toMatchObject({ status: 200, body: { status: 'authorized', claims: { given_name: 'Erika', family_name: 'Mustermann', vct: PID_VCT } } });
    // Only what was asked for is disclosed.
    expect((done.body.claims as Record<string, unknown>).birthdate).toBeUndefined();
    // The code is single-use.
    expect((await user(`/callback${redirect.search}`)).status).toBe(400);
  });

  it('refuses a response code relayed into another session', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    const victim = browser();
    const attacker = browser();
    const started = await attacker('/login', { method: 'POST' });
    await victim('/login', { method: 'POST' });
    const answer = await wallet.respond(await wallet.receive(String(started.body.authorizeUrl), { verifierTrustAnchors: [verifierRootPem] }));
    const { search } = new URL((answer.body as { redirect_uri: string }).redirect_uri);
    // The victim's session started another authorization: the authorizer refuses and burns the code.
    const relayed = await victim(`/callback${search}`);
    expect(relayed.status).toBe(400);
    expect((await attacker(`/callback${search}`)).status).toBe(400);
  });
});

describe('examples/rp-backend: configuration from the environment', () => {
  it('names every missing variable and never prints the API key', () => {
    expect(() => rpBackendOptionsFromEnv({ AUTHZ_API_KEY: API_KEY })).toThrow(/PUBLIC_BASE_URL: is required[\s\S]*AUTHZ_REDIRECT_URI: is required/);
    try {
      rpBackendOptionsFromEnv({ AUTHZ_API_KEY: API_KEY, PUBLIC_BASE_URL: 'ftp://authz.example', AUTHZ_REDIRECT_URI: 'https://rp.example/callback' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain('PUBLIC_BASE_URL: must be an http(s) URL');
      expect(String(error)).not.toContain(API_KEY);
    }
  });
});
