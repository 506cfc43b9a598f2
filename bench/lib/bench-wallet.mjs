// The wallet that drives every server in bench/full-flow.mjs: the authorizer on each adapter, the
// floor and the hand-built peer all get the same client doing the same work per flow, so that the
// client's pace (and with it how long each server sits idle between requests) is the same for
// all three. It is a load generator on node:crypto, not a conformance tool, but it accepts no
// garbage: the request object must be an ES256 JWS of type oauth-authz-req+jwt under its x5c
// leaf, the leaf must be bound to the client_id (x509_hash) and issued by the verifier's trust
// anchor (checked once per leaf), and a posted wallet_nonce must come back.
//
// Per flow: one ES256 verification (the request object), one ES256 signature (the KB-JWT), one
// P-256 key generation, one ECDH and one AES-128-GCM encryption (the response), two SHA-256.
import { X509Certificate, createHash, createPrivateKey, randomBytes, sign, verify } from 'node:crypto';
import { encryptEcdhEsA128Gcm } from './ecdh-es-a128gcm.mjs';
import { httpCall } from './http-client.mjs';

const b64u = (data) => Buffer.from(data).toString('base64url');
const decodeJson = (segment) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

/** What the wallet posts as `wallet_metadata` (request_uri_method=post): a HAIP wallet with ES256 keys. */
const WALLET_METADATA = JSON.stringify({
  vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
  client_id_prefixes_supported: ['x509_hash'],
  request_object_signing_alg_values_supported: ['ES256'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
  response_types_supported: ['vp_token'],
  response_modes_supported: ['direct_post', 'direct_post.jwt'],
});

/**
 * An SD-JWT VC issued once by @vp-authorizer/testing's test issuer, with its holder key: what the
 * bench wallet presents in every flow.
 */
export async function issueBenchCredential({ vct, claims }) {
  const { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  allowInsecureUrlsForTests();
  const issuer = await createTestIssuer({ commonName: 'bench issuer' });
  const testWallet = await createTestWallet();
  const credential = await testWallet.addSdJwtVc(issuer, { vct, claims });
  return { issuer, testWallet, compact: credential.compact, vct, holderPrivateJwk: credential.holderKey.privateJwk };
}

/**
 * `credential`: `{ compact, vct, holderPrivateJwk }` (issueBenchCredential). `verifierTrustAnchors`:
 * PEM roots a request object's x5c leaf must be issued by.
 */
export function createBenchWallet({ credential, verifierTrustAnchors }) {
  const holderKey = createPrivateKey({ key: credential.holderPrivateJwk, format: 'jwk' });
  const [issuerJwt, ...rest] = credential.compact.split('~');
  // Disclosures by claim name, decoded once: the wallet picks the ones a query asks for.
  const disclosures = new Map(rest.filter(Boolean).map((d) => [decodeJson(d)[1], d]));
  const anchors = verifierTrustAnchors.map((pem) => new X509Certificate(pem));
  const trustedLeaves = new Map(); // x5c[0] → { publicKey, clientId }: each leaf's chain is checked once

  function leafOf(x5c0) {
    let leaf = trustedLeaves.get(x5c0);
    if (leaf) return leaf;
    const der = Buffer.from(x5c0, 'base64');
    const cert = new X509Certificate(der);
    if (!anchors.some((anchor) => cert.checkIssued(anchor) && cert.verify(anchor.publicKey))) throw new Error('bench wallet: request object leaf not issued by a trusted verifier root');
    leaf = { publicKey: cert.publicKey, clientId: `x509_hash:${createHash('sha256').update(der).digest('base64url')}` };
    if (trustedLeaves.size < 64) trustedLeaves.set(x5c0, leaf);
    return leaf;
  }

  /** Follow an authorizeUrl: fetch the request object as a wallet does and check it. */
  async function receive(authorizeUrl) {
    const url = new URL(authorizeUrl);
    const clientId = url.searchParams.get('client_id');
    const requestUri = url.searchParams.get('request_uri');
    const method = url.searchParams.get('request_uri_method') ?? 'get';
    if (!clientId || !requestUri) throw new Error('bench wallet: authorizeUrl needs client_id and request_uri');
    const walletNonce = method === 'post' ? randomBytes(16).toString('base64url') : undefined;
    const accept = 'application/oauth-authz-req+jwt';
    const response = method === 'post' ? await httpCall(requestUri, { method: 'POST', accept, form: { wallet_metadata: WALLET_METADATA, wallet_nonce: walletNonce } }) : await httpCall(requestUri, { accept });
    const jwt = response.text.trim();
    if (response.status !== 200) throw new Error(`bench wallet: request_uri answered ${response.status} ${jwt.slice(0, 200)}`);
    if (!response.type.startsWith(accept)) throw new Error(`bench wallet: request object content type is ${response.type}`);
    const [headerB64, payloadB64, signatureB64] = jwt.split('.');
    const header = decodeJson(headerB64);
    if (header.typ !== 'oauth-authz-req+jwt' || header.alg !== 'ES256' || typeof header.x5c?.[0] !== 'string') throw new Error('bench wallet: request object header');
    const leaf = leafOf(header.x5c[0]);
    if (!verify('sha256', Buffer.from(`${headerB64}.${payloadB64}`), { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signatureB64, 'base64url'))) throw new Error('bench wallet: request object signature');
    const request = decodeJson(payloadB64);
    if (request.client_id !== clientId || leaf.clientId !== clientId) throw new Error('bench wallet: client_id is not bound to the x5c leaf');
    if (walletNonce && request.wallet_nonce !== walletNonce) throw new Error('bench wallet: wallet_nonce not echoed');
    if (request.response_mode !== 'direct_post.jwt' || typeof request.nonce !== 'string' || typeof request.response_uri !== 'string') throw new Error('bench wallet: not a direct_post.jwt request');
    return request;
  }

  /** The presentation for one DCQL credential query: issuer JWT, the requested disclosures, a fresh KB-JWT. */
  function present(query, request) {
    if (query.format !== 'dc+sd-jwt' || (query.meta?.vct_values && !query.meta.vct_values.includes(credential.vct))) throw new Error(`bench wallet: no credential for query ${query.id}`);
    const chosen = (query.claims ?? []).map(({ path }) => {
      const disclosure = disclosures.get(path[0]);
      if (path.length !== 1 || !disclosure) throw new Error(`bench wallet: cannot disclose ${JSON.stringify(path)}`);
      return disclosure;
    });
    const presented = `${issuerJwt}~${chosen.map((d) => `${d}~`).join('')}`;
    const kbHeader = b64u(JSON.stringify({ alg: 'ES256', typ: 'kb+jwt' }));
    const kbPayload = b64u(JSON.stringify({ iat: Math.floor(Date.now() / 1000), aud: request.client_id, nonce: request.nonce, sd_hash: createHash('sha256').update(presented).digest('base64url') }));
    const signature = sign('sha256', Buffer.from(`${kbHeader}.${kbPayload}`), { key: holderKey, dsaEncoding: 'ieee-p1363' });
    return `${presented}${kbHeader}.${kbPayload}.${b64u(signature)}`;
  }

  /** Build, encrypt and post the response; resolves to the verifier's JSON answer. */
  async function respond(request) {
    const vpToken = Object.fromEntries(request.dcql_query.credentials.map((query) => [query.id, [present(query, request)]]));
    const keys = request.client_metadata?.jwks?.keys ?? [];
    const jwk = keys.find((k) => k.kty === 'EC' && k.crv === 'P-256' && k.alg === 'ECDH-ES' && (k.use === undefined || k.use === 'enc') && typeof k.kid === 'string');
    if (!jwk) throw new Error('bench wallet: client_metadata.jwks has no P-256 ECDH-ES key with a kid');
    const jwe = encryptEcdhEsA128Gcm(JSON.stringify({ vp_token: vpToken, ...(request.state !== undefined ? { state: request.state } : {}) }), jwk);
    const response = await httpCall(request.response_uri, { method: 'POST', accept: 'application/json', form: { response: jwe } });
    if (response.status !== 200) throw new Error(`bench wallet: response refused: ${response.status} ${response.text.slice(0, 300)}`);
    return JSON.parse(response.text);
  }

  return { receive, respond };
}
