// Request objects signed by a key held in AWS KMS, through the real @aws-sdk/client-kms pointed at a
// local fake of the KMS Sign API (AWS JSON 1.1 over HTTP on 127.0.0.1, static credentials): never
// run against AWS itself. A HAIP flow over HTTP, then KMS failing, throttling and hanging, then a key
// that is not the certificate's.
import { KMSClient } from '@aws-sdk/client-kms';
import { compactVerify, importX509 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignerUnavailableError, createAuthorizer, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { awsKmsSigner, type AwsKmsSigner } from '@vp-authorizer/kms-aws';
import { createTestCa, createTestIssuer, createTestWallet, startFakeAwsKms, startPassThroughAuthorizer, type FakeAwsKms, type IssuedCertificate, type PassThroughAuthorizerServer, type TestCa, type TestIssuer } from '@vp-authorizer/testing';

const V1 = '/openid4/vp/v1_0';
const DCQL = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } };

let ca: TestCa;
let leaf: IssuedCertificate;
let kms: FakeAwsKms;
let client: KMSClient;
let signer: AwsKmsSigner;
let server: PassThroughAuthorizerServer;
let issuer: TestIssuer;

const kmsClient = (endpoint: string) => new KMSClient({ region: 'eu-central-1', endpoint, credentials: { accessKeyId: 'AKIDFAKEKMS0000', secretAccessKey: 'fake-secret-access-key' } });

beforeAll(async () => {
  ca = await createTestCa('CN=Test access CA,O=vp-authorizer tests');
  leaf = await ca.issue({ subject: 'CN=rp.example,O=Example RP', dnsName: 'rp.example' });
  kms = await startFakeAwsKms({ privateKey: leaf.privateJwk as JsonWebKey });
  client = kmsClient(kms.endpoint);
  // The signer gives up (and closes the connection) before the authorizer's own bound. Generous
  // both: the client's first call loads much of the SDK, and the SDK retries a throttled call.
  signer = awsKmsSigner({ keyId: kms.keyId, client, certificateChain: [leaf.pem], timeoutMs: 5_000 });
  server = await startPassThroughAuthorizer({ instance: { signing: { signer, trustAnchor: ca.pem, timeoutMs: 20_000 } } });
  await server.authorizer.ready();
  issuer = await createTestIssuer();
});

afterAll(async () => {
  await server?.close();
  client?.destroy();
  await kms?.close();
});

const createHaip = async () => {
  const created = await server.api(`${V1}/authorizations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ profile: 'haip', responseMode: 'direct_post.jwt', query: DCQL }) });
  expect(created.status).toBe(201);
  return (await created.json()) as { authorizationId: string; authorizeUrl: string };
};
const requestUriOf = (authorizeUrl: string) => new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://w.invalid/')).searchParams.get('request_uri')!;
const fetchRequestObject = (authorizeUrl: string) => fetch(requestUriOf(authorizeUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });

describe('an AWS KMS key (a local fake of the Sign API) signing request objects', () => {
  it('signs a HAIP request object that jose verifies under the access certificate, and the flow authorizes', async () => {
    kms.mode = 'sign';
    const created = await createHaip();
    const jwt = await (await fetchRequestObject(created.authorizeUrl)).text();
    const { protectedHeader } = await compactVerify(jwt, await importX509(leaf.pem, 'ES256'));
    expect(protectedHeader.alg).toBe('ES256');
    expect(protectedHeader.x5c).toEqual([leaf.x5c]);
    // What reached KMS: the SHA-256 digest of the signing input, never the request object itself.
    expect(kms.lastRequest).toMatchObject({ KeyId: kms.keyId, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(Buffer.from(kms.lastRequest!.Message!, 'base64')).toHaveLength(32);

    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika' } });
    const second = await createHaip();
    const request = await wallet.receive(second.authorizeUrl, { verifierTrustAnchors: [ca.pem] });
    expect((await wallet.respond(request)).status).toBe(200);
    expect(await (await server.api(`${V1}/authorizations/${second.authorizationId}/status`)).json()).toEqual({ status: 'authorized' });
  });

  it('signs request objects longer than KMS\'s 4096-byte RAW limit (it sends a digest)', async () => {
    kms.mode = 'sign';
    const long = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, format: 'dc+sd-jwt', meta: { vct_values: [`urn:example:credential:with-a-long-type-name:${i}`] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }));
    const created = await server.api(`${V1}/authorizations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: long } } }) });
    const { authorizeUrl } = (await created.json()) as { authorizeUrl: string };
    const jwt = await (await fetchRequestObject(authorizeUrl)).text();
    expect(jwt.length).toBeGreaterThan(4096);
    await compactVerify(jwt, await importX509(leaf.pem, 'ES256'));
  });

  it.each([
    ['throttles', 'throttle', 'ThrottlingException'],
    ['fails', 'internal-error', 'KMSInternalException'],
    ['has the key disabled', 'disabled', 'DisabledException'],
  ] as const)('answers 503 signing.unavailable with Retry-After when KMS %s; nothing changes', async (_what, mode, name) => {
    const created = await createHaip();
    kms.mode = mode;
    try {
      const answer = await fetchRequestObject(created.authorizeUrl);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      const body = await answer.text();
      expect(JSON.parse(body)).toMatchObject({ error: 'temporarily_unavailable' });
      expect(body).toContain(name);
      // The key's ARN names the AWS account: it stays out of what the wallet is told.
      expect(body).not.toContain('111122223333');
    } finally {
      kms.mode = 'sign';
    }
    expect(await (await server.api(`${V1}/authorizations/${created.authorizationId}/status`)).json()).toEqual({ status: 'created' });
    expect((await fetchRequestObject(created.authorizeUrl)).status).toBe(200);
  });

  it('answers 503 when KMS does not answer, after the signer\'s timeoutMs, and closes the hung call', async () => {
    const created = await createHaip();
    kms.mode = 'hang';
    const abandonedBefore = kms.abandoned;
    try {
      const answer = await fetchRequestObject(created.authorizeUrl);
      expect(answer.status).toBe(503);
      expect(await answer.text()).toContain('no answer within 5000 ms');
      await expect.poll(() => kms.abandoned).toBe(abandonedBefore + 1);
    } finally {
      kms.mode = 'sign';
    }
  });

  it('rejects with SignerUnavailableError, the SDK error kept as the cause', async () => {
    kms.mode = 'throttle';
    try {
      const error = await signer.sign(new TextEncoder().encode('header.payload')).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(SignerUnavailableError);
      expect((error as SignerUnavailableError).code).toBe('signing.unavailable');
      expect(((error as Error).cause as Error).name).toBe('ThrottlingException');
    } finally {
      kms.mode = 'sign';
    }
  });

  it('is refused at start when the KMS key is not the one the certificate names (the authorizer\'s probe)', async () => {
    const other = await ca.issue({ subject: 'CN=other.example,O=Example RP', dnsName: 'other.example' });
    const wrong = await startFakeAwsKms({ privateKey: other.privateJwk as JsonWebKey });
    const wrongClient = kmsClient(wrong.endpoint);
    try {
      const authorizer = createAuthorizer({
        publicBaseUrl: 'https://verifier.example/authz',
        sweepIntervalMs: 0,
        instances: [{ id: 'kms', apiKeys: ['kms-api-key-0123456789'], signing: { signer: awsKmsSigner({ keyId: wrong.keyId, client: wrongClient, certificateChain: [leaf.pem] }), trustAnchor: ca.pem }, validator: passThroughValidator(), verifier: passThroughVerifier() }],
      });
      await expect(authorizer.ready()).rejects.toThrow(/does not match the public key of the leaf certificate/);
      await authorizer.close();
      expect(wrong.calls).toBe(1);
    } finally {
      wrongClient.destroy();
      await wrong.close();
    }
  });

  it('refuses a misconfiguration when built, naming the fix', () => {
    const chain = [leaf.pem];
    expect(() => awsKmsSigner({ keyId: '', region: 'eu-central-1', certificateChain: chain })).toThrow(/keyId is required/);
    expect(() => awsKmsSigner({ keyId: kms.keyId, certificateChain: chain })).toThrow(/either a configured KMSClient \(client\) or a region/);
    expect(() => awsKmsSigner({ keyId: kms.keyId, client, region: 'eu-central-1', certificateChain: chain })).toThrow(/not both/);
    expect(() => awsKmsSigner({ keyId: kms.keyId, region: 'eu-central-1', certificateChain: [] })).toThrow(/certificateChain must list/);
    expect(() => awsKmsSigner({ keyId: kms.keyId, region: 'eu-central-1', certificateChain: chain, timeoutMs: 0 })).toThrow(/timeoutMs must be/);
    const built = awsKmsSigner({ keyId: kms.keyId, region: 'eu-central-1', certificateChain: chain });
    built.close();
    built.close();
  });
});
