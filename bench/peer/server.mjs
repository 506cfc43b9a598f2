// A verifier as a developer would build it on published libraries, with plain node:http:
// @openid4vc/openid4vp builds the signed request (JAR, x509_hash client id) and parses and
// validates the encrypted response, jose does the JOSE work, @sd-jwt/sd-jwt-vc verifies the
// SD-JWT VC and its KB-JWT. In-memory state, one process. What it checks and what it skips is
// listed in docs/performance.md; it exists only to be measured beside the authorizer.
//   POST /create            → { id, authorizeUrl }
//   GET  /request/:id       → the signed request object
//   POST /response/:id      → direct_post.jwt; { redirect_uri } with a response code
//   POST /resolve           → { status, claims } for a response code (once)
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { calculateX509HashClientIdPrefixValue, createOpenid4vpAuthorizationRequest, parseOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { digest } from '@sd-jwt/crypto-nodejs';
import { CompactSign, compactDecrypt, exportJWK, flattenedVerify, generateKeyPair, importJWK, importX509 } from 'jose';

const b64u = (bytes) => Buffer.from(bytes).toString('base64url');
const hash = (data, alg) => new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest());
const pem = (der) => `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g).join('\n')}\n-----END CERTIFICATE-----`;
const SESSION_MS = 5 * 60_000;

export async function startPeer({ signingJwk, leafX5c, issuerRootPem }) {
  setGlobalConfig({ allowInsecureUrls: true }); // the benchmark serves plain http on 127.0.0.1
  const signingKey = await importJWK(signingJwk, 'ES256');
  const clientId = `x509_hash:${await calculateX509HashClientIdPrefixValue({ x509Certificate: leafX5c, hash })}`;
  const issuerRoot = new X509Certificate(issuerRootPem);
  const sessions = new Map(); // id → { request, privateKey, publicJwk, expires }
  const codes = new Map(); // response code → { claims, expires }

  const callbacks = {
    hash,
    generateRandom: (n) => randomBytes(n),
    async signJwt(signer, { header, payload }) {
      const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(signingKey);
      return { jwt, signerJwk: { ...signingJwk, d: undefined } };
    },
    async decryptJwe(jwe, options) {
      const session = options?.session;
      const { plaintext } = await compactDecrypt(jwe, session.privateKey, { keyManagementAlgorithms: ['ECDH-ES'], contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'] });
      return { decrypted: true, decryptionJwk: session.publicJwk, payload: new TextDecoder().decode(plaintext) };
    },
  };

  async function create(origin) {
    const id = b64u(randomBytes(16));
    const { privateKey, publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
    const publicJwk = { ...(await exportJWK(publicKey)), kid: 'resp-enc', alg: 'ECDH-ES', use: 'enc' };
    const { authorizationRequest, authorizationRequestPayload, jar } = await createOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: {
        response_type: 'vp_token',
        client_id: clientId,
        response_mode: 'direct_post.jwt',
        response_uri: `${origin}/response/${id}`,
        nonce: b64u(randomBytes(16)),
        state: b64u(randomBytes(16)),
        dcql_query: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] },
        client_metadata: { jwks: { keys: [publicJwk] }, encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'], vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } } },
      },
      jar: { expiresInSeconds: 300, requestUri: `${origin}/request/${id}`, jwtSigner: { method: 'x5c', alg: 'ES256', x5c: [leafX5c] }, additionalJwtPayload: { aud: 'https://self-issued.me/v2' } },
      callbacks,
    });
    sessions.set(id, { request: authorizationRequestPayload, jwt: jar.authorizationRequestJwt, privateKey, publicJwk, expires: Date.now() + SESSION_MS });
    return { id, authorizeUrl: authorizationRequest };
  }

  async function respond(id, form) {
    const session = sessions.get(id);
    if (!session || session.expires < Date.now()) return [400, { error: 'invalid_request' }];
    sessions.delete(id); // one response per request
    const parsed = await parseOpenid4vpAuthorizationResponse({
      authorizationResponse: Object.fromEntries(new URLSearchParams(form)),
      authorizationRequestPayload: session.request,
      callbacks: { ...callbacks, decryptJwe: (jwe) => callbacks.decryptJwe(jwe, { session }) },
    });
    if (parsed.authorizationResponsePayload.state !== session.request.state) return [400, { error: 'invalid_request' }];
    const presentation = parsed.dcql.presentations.pid?.[0];
    if (typeof presentation !== 'string') return [400, { error: 'invalid_request' }];
    const claims = await verifySdJwtVc(presentation, session.request);
    const code = b64u(randomBytes(32));
    codes.set(code, { claims, expires: Date.now() + SESSION_MS });
    return [200, { redirect_uri: `https://rp.example/cb#response_code=${code}` }];
  }

  /** Issuer signature under the x5c leaf, the leaf under the trusted root, KB-JWT nonce/aud/sd_hash and signature. */
  async function verifySdJwtVc(presentation, request) {
    const header = JSON.parse(Buffer.from(presentation.split('.')[0], 'base64url').toString());
    const leaf = new X509Certificate(Buffer.from(header.x5c?.[0] ?? '', 'base64'));
    if (!leaf.verify(issuerRoot.publicKey) || !leaf.checkIssued(issuerRoot)) throw new Error('issuer certificate not trusted');
    const issuerKey = await importX509(pem(header.x5c[0]), 'ES256');
    const verifyWith = (key) => async (data, signature) => {
      const [protectedHeader, payload] = data.split('.');
      await flattenedVerify({ protected: protectedHeader, payload, signature }, key, { algorithms: ['ES256'] });
      return true;
    };
    const sdjwt = new SDJwtVcInstance({
      hasher: digest,
      verifier: verifyWith(issuerKey),
      kbVerifier: async (data, signature, payload) => verifyWith(await importJWK(payload.cnf.jwk, 'ES256'))(data, signature),
    });
    const { payload, kb } = await sdjwt.verify(presentation, { keyBindingNonce: request.nonce, requiredClaimKeys: ['vct'] });
    if (kb?.payload.aud !== request.client_id) throw new Error('KB-JWT audience');
    return payload;
  }

  function resolve(body) {
    const code = JSON.parse(body).response_code;
    const entry = codes.get(code);
    codes.delete(code);
    if (!entry || entry.expires < Date.now()) return [404, { error: 'unknown response code' }];
    return [200, { status: 'authorized', claims: entry.claims }];
  }

  let origin;
  const server = createServer(async (req, res) => {
    try {
      let body = '';
      req.setEncoding('utf8');
      for await (const chunk of req) body += chunk;
      const [path] = req.url.split('?');
      let answer;
      if (req.method === 'POST' && path === '/create') answer = [200, await create(origin)];
      else if (req.method === 'GET' && path.startsWith('/request/')) {
        const session = sessions.get(path.slice('/request/'.length));
        if (!session) answer = [404, { error: 'not found' }];
        else return void res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(session.jwt);
      } else if (req.method === 'POST' && path.startsWith('/response/')) answer = await respond(path.slice('/response/'.length), body);
      else if (req.method === 'POST' && path === '/resolve') answer = resolve(body);
      else answer = [404, { error: 'not found' }];
      res.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
    } catch (error) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_request', detail: String(error?.message ?? error) }));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}
