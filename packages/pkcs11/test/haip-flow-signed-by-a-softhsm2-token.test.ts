// A HAIP flow over HTTP whose request object is signed by a key generated on a SoftHSM2 token,
// as a wallet built on published libraries sees it; then the token's behaviour under load, when it
// disappears, and at close.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { compactVerify, importX509 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, type Authorizer, type Logger } from '@vp-authorizer/core';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestIssuer, createTestWallet, type TestIssuer } from '@vp-authorizer/testing';
import { createCertificateSigningRequest } from '@vp-authorizer/keys';
import { generatePkcs11Key, openPkcs11Signer, type Pkcs11Signer } from '@vp-authorizer/pkcs11';
import { SOFTHSM_MODULE, startSoftHsm, type SoftHsm } from './__fixtures__/softhsm.js';
import { certificateForKey } from './__fixtures__/certificate-for-key.js';

const PIN = 'pin-7Hq2-secret';
const API_KEY = 'pkcs11-api-key-0123456789';
const V1 = '/openid4/vp/v1_0';

let hsm: SoftHsm;
let signer: Pkcs11Signer;
let root: string;
let issuer: TestIssuer;
let authorizer: Authorizer;
let baseUrl: string;
let close: () => Promise<void>;
const logged: string[] = [];

beforeAll(async () => {
  hsm = startSoftHsm();
  hsm.initToken('rp-signing', PIN);
  // Nobody logs in to this one before the wrong-PIN case (a login holds for the whole process).
  hsm.initToken('rp-other', PIN);
  hsm.initToken('rp-signing-2', PIN);
  await generatePkcs11Key({ module: SOFTHSM_MODULE, token: { label: 'rp-signing-2' }, pin: PIN, label: 'csr-key' });
  const { publicKey } = await generatePkcs11Key({ module: SOFTHSM_MODULE, token: { label: 'rp-signing' }, pin: PIN, label: 'request-signing', id: '01' });
  const { leafPem, rootPem } = await certificateForKey(publicKey);
  root = rootPem;
  signer = await openPkcs11Signer({ module: SOFTHSM_MODULE, token: { label: 'rp-signing' }, pin: PIN, key: { label: 'request-signing' }, certificateChain: [leafPem], sessions: 2 });
  issuer = await createTestIssuer();
  const line = (level: string) => (fields: object, message?: string) => void logged.push(`${level} ${message ?? ''} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  const server = createServer((req, res) => void bridge(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  authorizer = createAuthorizer({
    publicBaseUrl: baseUrl,
    sweepIntervalMs: 0,
    logger,
    instances: [
      {
        id: 'hsm',
        apiKeys: [API_KEY],
        signing: { signer, trustAnchor: rootPem, timeoutMs: 2_000 },
        config: { openId4vp: { redirectUri: 'https://rp.example/callback' } },
        validator: localValidator({ trustedIssuers: [issuer.rootCertificatePem] }),
        verifier: localVerifier({ trustAnchors: [issuer.rootCertificatePem], outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
  await authorizer.ready();
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
});

afterAll(async () => {
  await authorizer?.close();
  await close?.();
  await signer?.close();
  hsm?.remove();
});

async function bridge(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = req.method === 'GET' ? undefined : Buffer.concat(chunks);
  const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])));
  const response = await authorizer.fetch(new Request(new URL(req.url!, baseUrl), { method: req.method!, headers, ...(body ? { body } : {}) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

const rp = async (path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, string> };
};
const haipCreate = () => rp(`${V1}/authorizations`, { profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } } });

describe('a PKCS#11 token (SoftHSM2) signing request objects', () => {
  it('signs a HAIP request object that a wallet verifies up to the access CA, and the flow authorizes', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    const created = await haipCreate();
    expect(created.status).toBe(201);
    const request = await wallet.receive(created.json.authorizeUrl!, { verifierTrustAnchors: [root] });
    const result = await wallet.respond(request);
    expect(result.status).toBe(200);
    expect((await rp(`${V1}/authorizations/${created.json.authorizationId}/status`)).json).toEqual({ status: 'authorized' });
  });

  it('answers signatures that an independent JOSE library verifies under the leaf certificate', async () => {
    const created = await haipCreate();
    const requestUri = new URL(created.json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://w.invalid/')).searchParams.get('request_uri')!;
    const jwt = await (await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).text();
    const { protectedHeader } = await compactVerify(jwt, await importX509(signer.certificateChain[0]!, 'ES256'));
    expect(protectedHeader.x5c).toHaveLength(1);
  });

  it('reuses its sessions: many concurrent signatures open no more than the configured two', async () => {
    const data = new TextEncoder().encode('header.payload');
    const signatures = await Promise.all(Array.from({ length: 64 }, () => signer.sign(data)));
    expect(signatures.every((s) => s.length === 64)).toBe(true);
    expect(signer.sessionsOpen).toBe(2);
  });

  it('never writes the PIN into a log line', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(PIN);
  });

  it('refuses a wrong PIN with the token\'s code and without the PIN', async () => {
    const wrong = 'wrong-pin-Zx81';
    const error = await openPkcs11Signer({ module: SOFTHSM_MODULE, token: { label: 'rp-other' }, pin: wrong, key: { label: 'request-signing' }, certificateChain: signer.certificateChain }).then(
      () => new Error('opened'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('CKR_PIN_INCORRECT');
    expect(`${error.message} ${String(error.stack)}`).not.toContain(wrong);
  });

  it('signs a certificate signing request for its key that openssl req -verify accepts', async () => {
    const token = await openPkcs11Signer({ module: SOFTHSM_MODULE, token: { label: 'rp-signing-2' }, pin: PIN, key: { label: 'csr-key' }, sessions: 1 });
    try {
      const pem = await createCertificateSigningRequest({ key: { publicKey: token.publicKey, sign: (d) => token.sign(d) }, dnsName: 'rp.example', organization: 'Example RP', organizationId: 'LEIXG-529900T8BM49AURSDO55' });
      const file = join(hsm.dir, 'token.csr');
      writeFileSync(file, pem);
      execFileSync('openssl', ['req', '-verify', '-noout', '-in', file], { stdio: 'pipe' });
      expect(execFileSync('openssl', ['req', '-noout', '-pubkey', '-in', file], { encoding: 'utf8' })).toBe(token.publicKey.export({ format: 'pem', type: 'spki' }));
    } finally {
      await token.close();
    }
  });

  it('answers 503 with Retry-After, promptly, when the token disappears; nothing is stored', async () => {
    hsm.deleteToken('rp-signing');
    const refused = await haipCreate();
    // A redirect-flow create does not sign: the request object does.
    expect(refused.status).toBe(201);
    const requestUri = new URL(refused.json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://w.invalid/')).searchParams.get('request_uri')!;
    const answer = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await rp(`${V1}/authorizations/${refused.json.authorizationId}/status`)).json).toEqual({ status: 'created' });
    // A signed DC API request is built at creation: that create answers 503 too.
    const dcApi = await rp(`${V1}/authorizations`, { responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } });
    expect(dcApi.status).toBe(503);
    expect(dcApi.json.type).toContain('signing.unavailable');
    expect(logged.join('\n')).not.toContain(PIN);
  });

  it('closes cleanly: sessions closed, later signatures refused, a second close is harmless', async () => {
    await signer.close();
    expect(signer.sessionsOpen).toBe(0);
    await expect(signer.sign(new Uint8Array(1))).rejects.toThrow('closed');
    await signer.close();
  });
});
