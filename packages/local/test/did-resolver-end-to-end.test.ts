// A JWT VP whose holder is a DID only a resolver service knows (did:ethr, did:ebsi, did:cheqd,
// did:pkh, did:plc), verified end to end: a real authorizer over HTTP, the local verifier with
// httpDidResolver pointed at a local server speaking the DIF Universal Resolver HTTP API.
import { ECDH, type KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Authorizer, createAuthorizer, type DidMethodsConfigInput } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { httpDidResolver, localValidator, localVerifier } from '@vp-authorizer/local';
import { type TestIssuer, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base58btcEncode } from '../src/__fixtures__/did-keys.js';
import { type UniversalResolverServer, startUniversalResolver } from '../src/__fixtures__/universal-resolver-server.js';

const API_KEY = 'did-resolver-e2e-key-0123456789';
const V1 = '/openid4/vp/v1_0';
const DID_METHODS: DidMethodsConfigInput = {
  methods: { ethr: { enabled: true }, ebsi: { enabled: true, registry: { environment: 'pilot.v5' } }, cheqd: { enabled: true }, pkh: { enabled: true }, plc: { enabled: true } },
};

let resolverServer: UniversalResolverServer;
let issuer: TestIssuer;
let authorizer: Authorizer;
let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  resolverServer = await startUniversalResolver();
  issuer = await createTestIssuer();
  const dev = await generateDevSigningKey();
  const server = createServer((req, res) => {
    (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])));
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const response = await authorizer.fetch(new Request(new URL(req.url ?? '/', baseUrl), { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  authorizer = createAuthorizer({
    publicBaseUrl: baseUrl,
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'did-resolver',
        apiKeys: [API_KEY],
        signing: dev.signing,
        config: { openId4vp: { redirectUri: 'https://rp.example/callback' }, didMethods: DID_METHODS },
        validator: localValidator({ trustedIssuers: [issuer.rootCertificatePem] }),
        // The resolver listens on loopback: the outbound policy's escape hatch for tests.
        verifier: localVerifier({ trustAnchors: [issuer.rootCertificatePem], didResolver: httpDidResolver({ url: resolverServer.url, timeoutMs: 2_000 }), outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
  await authorizer.ready();
  close = async () => {
    await authorizer.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await resolverServer.close();
  };
}, 60_000);
afterAll(async () => close());
beforeEach(() => void resolverServer.requests.splice(0));

const rp = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${baseUrl}${V1}${path}`, { method, headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await response.json()) as T;
};

interface Holder {
  did: string;
  kid: string;
  alg: 'ES256' | 'EdDSA';
  privateKey: KeyObject;
}

/** A holder key pair and the DID document the resolver serves for `did`, with the key in `encoding`. */
async function holder(did: string, curve: 'P-256' | 'Ed25519', encoding: 'publicKeyJwk' | 'publicKeyBase58' | 'publicKeyMultibase'): Promise<Holder> {
  const { publicKey, privateKey } = curve === 'P-256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const compressed = curve === 'P-256' ? (ECDH.convertKey(Buffer.concat([Buffer.from([4]), x, Buffer.from(jwk.y!, 'base64url')]), 'prime256v1', undefined, undefined, 'compressed') as Buffer) : x;
  const key =
    encoding === 'publicKeyJwk'
      ? { type: 'JsonWebKey2020', publicKeyJwk: jwk }
      : encoding === 'publicKeyBase58'
        ? { type: curve === 'P-256' ? 'EcdsaSecp256r1VerificationKey2019' : 'Ed25519VerificationKey2018', publicKeyBase58: base58btcEncode(compressed) }
        : { type: 'Multikey', publicKeyMultibase: `z${base58btcEncode(Buffer.concat([Buffer.from(curve === 'P-256' ? [0x80, 0x24] : [0xed, 0x01]), compressed]))}` };
  const kid = `${did}#key-1`;
  resolverServer.set(did, { document: { '@context': ['https://www.w3.org/ns/did/v1'], id: did, verificationMethod: [{ id: kid, controller: did, ...key }], authentication: [kid], assertionMethod: [kid] }, asResolutionResult: did.includes('plc') });
  return { did, kid, alg: curve === 'P-256' ? 'ES256' : 'EdDSA', privateKey };
}

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS (ES256 as raw r‖s, or EdDSA) made with node:crypto. */
function compactJws(header: { alg: 'ES256' | 'EdDSA'; [k: string]: unknown }, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64u(header)}.${b64u(payload)}`;
  const signature = header.alg === 'ES256' ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }) : sign(null, Buffer.from(input), key);
  return `${input}.${signature.toString('base64url')}`;
}

const degreeQuery = { type: 'DCQL', dcql: { credentials: [{ id: 'degree', format: 'jwt_vc_json', meta: { type_values: [['VerifiableCredential', 'UniversityDegree']] }, claims: [{ path: ['credentialSubject', 'degree'] }] }] } };

/** The whole flow: create, the wallet fetches the request, the holder answers with a vp+jwt over direct_post. */
async function presentAs(signer: Holder) {
  const vc = await issuer.issueJwtVc({ dataModel: '2.0', subjectDid: signer.did, claims: { degree: 'MSc' }, types: ['UniversityDegree'], issuerIdentity: 'x5c' });
  const created = await rp<{ authorizationId: string; authorizeUrl: string }>('POST', '/authorizations', { responseMode: 'direct_post', query: degreeQuery });
  const wallet = await createTestWallet();
  const request = await wallet.receive(created.authorizeUrl);
  const iat = Math.floor(Date.now() / 1000);
  const vp = compactJws({ alg: signer.alg, typ: 'vp+jwt', kid: signer.kid }, {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiablePresentation'],
    holder: signer.did,
    verifiableCredential: [{ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${vc}` }],
    iss: signer.did,
    aud: request.clientId,
    nonce: request.nonce,
    iat,
    exp: iat + 300,
  }, signer.privateKey);
  const posted = await wallet.submit({ responseMode: 'direct_post', responseUri: request.responseUri!, payload: {}, form: { vp_token: JSON.stringify({ degree: [vp] }), ...(request.state ? { state: request.state } : {}) } });
  const status = (await rp<{ status: string }>('GET', `/authorizations/${created.authorizationId}/status`)).status;
  const policies = (await rp<{ data: { path: unknown[]; policy: string; data?: Record<string, unknown>; error?: { code?: string; type: string } }[] }>('GET', `/authorizations/${created.authorizationId}/policy-response`)).data;
  return { posted, status, policies, failed: policies.filter((p) => p.error).map((p) => p.error!.code ?? p.error!.type) };
}

describe('DID resolution through a Universal Resolver service, end to end', () => {
  it.each([
    ['did:ethr:0xb9c5714089478a327f09197987f16f9e5d936e8a', 'P-256', 'publicKeyJwk'],
    ['did:ebsi:zfEmvX5twhXjQJiCWsukvQA', 'P-256', 'publicKeyMultibase'],
    ['did:cheqd:mainnet:Ps1ysXP2Ae6GBfxNhNQNKN', 'Ed25519', 'publicKeyBase58'],
    ['did:pkh:eip155:1:0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb', 'Ed25519', 'publicKeyMultibase'],
    ['did:plc:ewvi7nxzyoun6zhxrhs64oiz', 'P-256', 'publicKeyBase58'],
  ] as const)('authorizes a vp+jwt signed by a %s holder (%s key in %s)', async (did, curve, encoding) => {
    const flow = await presentAs(await holder(did, curve, encoding));
    expect(flow.failed).toEqual([]);
    expect(flow.status).toBe('authorized');
    expect(flow.policies.find((p) => p.policy === 'holderBinding')?.data).toMatchObject({ holder: did, kid: `${did}#key-1` });
    expect(resolverServer.requests.map((r) => r.did)).toEqual([did]);
    // The EBSI registry environment of the instance's DID-method configuration reaches the resolver.
    expect(resolverServer.requests[0]!.query).toBe(did.startsWith('did:ebsi:') ? '?environment=pilot.v5' : '');
  });

  it('a second presentation by the same holder is verified from the cache, without a resolver request', async () => {
    const signer = await holder('did:ethr:0x26bf14321004e770e7a8b080b7a526d8eed8b388', 'P-256', 'publicKeyJwk');
    expect((await presentAs(signer)).status).toBe('authorized');
    expect((await presentAs(signer)).status).toBe('authorized');
    expect(resolverServer.requests).toHaveLength(1);
  });

  it('a holder DID the resolver does not know → rejected with did.not_found', async () => {
    const signer = await holder('did:ethr:0x1111111111111111111111111111111111111111', 'P-256', 'publicKeyJwk');
    resolverServer.set(signer.did, { status: 404 });
    const flow = await presentAs(signer);
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('did.not_found');
  });

  it('a holder DID of a method the instance has not enabled → rejected with did.method_disabled, no resolver request', async () => {
    const signer = await holder('did:ion:EiClkZMDxPKqC9c-umQfTkR8vvZ9JPhl_xLDI9Nfk38w5w', 'P-256', 'publicKeyJwk');
    const flow = await presentAs(signer);
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('did.method_disabled');
    expect(resolverServer.requests).toEqual([]);
  });

  it('a resolver failure → rejected with did.resolution_failed, without the resolver body in the policy response', async () => {
    const signer = await holder('did:cheqd:testnet:failing', 'Ed25519', 'publicKeyJwk');
    resolverServer.set(signer.did, { status: 500, body: 'resolver-internal-detail' });
    const flow = await presentAs(signer);
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('did.resolution_failed');
    expect(JSON.stringify(flow.policies)).not.toContain('resolver-internal-detail');
  });
});
