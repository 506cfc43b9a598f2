// The floor of a full flow: the cryptography a verifier cannot avoid, done with node:crypto and
// nothing else, behind the same number of plain HTTP round trips on the same framework as the
// flow it is compared with, speaking enough OpenID4VP for the bench wallet (bench-wallet.mjs)
// to drive it exactly as it drives the authorizer and the peer:
//   create   → one P-256 key generation (the per-request response encryption key)
//   request  → one ES256 signature (the signed request object: client_id, nonce, state,
//              response_uri, dcql_query, client_metadata.jwks; wallet_nonce echoed when posted)
//   response → one ECDH-ES/A128GCM decryption, the x5c leaf check against the issuer's root,
//              the issuer's ES256 signature and the KB-JWT's ES256 signature, with state, nonce
//              and aud compared as strings
//   resolve  → one Map lookup of the response code
// No other protocol checks, no store, no policy: everything the real flow does beyond this is overhead.
import { X509Certificate, createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { PID_QUERY } from './constants.mjs';
import { decryptEcdhEsA128Gcm, generateP256 } from './ecdh-es-a128gcm.mjs';
import { route } from './frameworks.mjs';

const b64u = (data) => Buffer.from(data).toString('base64url');
const json = (text) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));

/**
 * Routes under /floor; `signingJwk` signs request objects (its certificate is `leafX5c`),
 * `issuerRootPem` anchors the credential's x5c check, `originOf()` is the server's own origin.
 * `light: true` is the floor as measured until the bench wallet replaced the light client (one
 * pre-built payload re-encrypted per flow, so it cannot carry this request's state and nonce):
 * state, nonce and aud go unchecked. Kept for one release of the report, to show the change of method.
 */
export function floorRoutes({ signingJwk, leafX5c, issuerRootPem, originOf, light = false }) {
  const signingKey = createPrivateKey({ key: signingJwk, format: 'jwk' });
  const clientId = `x509_hash:${createHash('sha256').update(Buffer.from(leafX5c, 'base64')).digest('base64url')}`;
  const jarHeader = b64u(JSON.stringify({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [leafX5c] }));
  const root = new X509Certificate(issuerRootPem);
  const pending = new Map();
  const codes = new Set();

  // GET, or POST with wallet_metadata and wallet_nonce (request_uri_method=post).
  const requestObject = ({ query, body }) => {
    const entry = pending.get(query.id);
    if (!entry) return { status: 404, json: {} };
    const walletNonce = new URLSearchParams(body).get('wallet_nonce');
    const now = Math.floor(Date.now() / 1000);
    const payload = b64u(
      JSON.stringify({
        response_type: 'vp_token',
        client_id: clientId,
        response_mode: 'direct_post.jwt',
        response_uri: `${originOf()}/floor/response?id=${query.id}`,
        nonce: entry.nonce,
        state: entry.state,
        dcql_query: PID_QUERY.dcql,
        client_metadata: { jwks: { keys: [{ ...entry.publicJwk, alg: 'ECDH-ES', use: 'enc', kid: 'k' }] }, encrypted_response_enc_values_supported: ['A128GCM'], vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } } },
        aud: 'https://self-issued.me/v2',
        iat: now,
        exp: now + 300,
        ...(walletNonce ? { wallet_nonce: walletNonce } : {}),
      }),
    );
    const signature = sign('sha256', Buffer.from(`${jarHeader}.${payload}`), { key: signingKey, dsaEncoding: 'ieee-p1363' });
    return { status: 200, text: `${jarHeader}.${payload}.${b64u(signature)}`, type: 'application/oauth-authz-req+jwt' };
  };

  return [
    route('POST', '/floor/create', () => {
      const id = b64u(randomBytes(16));
      const { ecdh, publicJwk } = generateP256();
      pending.set(id, { ecdh, publicJwk, nonce: b64u(randomBytes(16)), state: b64u(randomBytes(16)) });
      const requestUri = `${originOf()}/floor/request?id=${id}`;
      return { status: 201, json: { id, authorizeUrl: `openid4vp://?${new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...(light ? {} : { request_uri_method: 'post' }) })}` } };
    }),
    route('GET', '/floor/request', requestObject),
    route('POST', '/floor/request', requestObject),
    route('POST', '/floor/response', ({ query, body }) => {
      const entry = pending.get(query.id);
      if (!entry) return { status: 404, json: {} };
      pending.delete(query.id);
      const payload = JSON.parse(decryptEcdhEsA128Gcm(new URLSearchParams(body).get('response'), entry.ecdh));
      if (!light && payload.state !== entry.state) throw new Error('state');
      const presentation = payload.vp_token[PID_QUERY.dcql.credentials[0].id][0];
      const parts = presentation.split('~');
      const [issuerJwt, kbJwt] = [parts[0], parts[parts.length - 1]];
      const issuerHeader = json(issuerJwt.split('.')[0]);
      const leaf = new X509Certificate(Buffer.from(issuerHeader.x5c[0], 'base64'));
      if (!leaf.verify(root.publicKey)) throw new Error('x5c leaf not issued by the root');
      if (!verifyEs256(issuerJwt, leaf.publicKey)) throw new Error('issuer signature');
      const cnf = json(issuerJwt.split('.')[1]).cnf.jwk;
      if (!verifyEs256(kbJwt, createPublicKey({ key: cnf, format: 'jwk' }))) throw new Error('KB-JWT signature');
      const kb = json(kbJwt.split('.')[1]);
      if (!light && (kb.nonce !== entry.nonce || kb.aud !== clientId)) throw new Error('KB-JWT nonce or aud');
      const code = b64u(randomBytes(16));
      codes.add(code);
      return { status: 200, json: { redirect_uri: `https://rp.example/cb#response_code=${code}` } };
    }),
    route('POST', '/floor/resolve', ({ body }) => {
      const { response_code: code } = JSON.parse(body);
      if (!codes.delete(code)) return { status: 404, json: { error: 'unknown response code' } };
      return { status: 200, json: { status: 'authorized' } };
    }),
  ];
}

function verifyEs256(jwt, key) {
  const end = jwt.lastIndexOf('.');
  return verify('sha256', Buffer.from(jwt.slice(0, end)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(jwt.slice(end + 1), 'base64url'));
}
