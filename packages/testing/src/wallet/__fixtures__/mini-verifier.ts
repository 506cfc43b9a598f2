// Test support only (not exported): a minimal verifier endpoint pair on 127.0.0.1 that serves a
// signed request object and records wallet responses, so the wallet is tested without the core.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWK, SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose';
import { createTestCa } from '../test-ca.js';

export interface MiniVerifier {
  authorizeUrl: string;
  clientId: string;
  nonce: string;
  state: string;
  responseUri: string;
  rootCertificatePem: string;
  encryptionPrivateJwk: JWK;
  encryptionPublicJwk: JWK & { kid: string };
  /** Bodies the request_uri received (form fields). */
  requestPosts: Record<string, string>[];
  /** Bodies the response_uri received (form fields). */
  responses: Record<string, string>[];
  close(): Promise<void>;
}

export interface MiniVerifierOptions {
  responseMode?: string;
  responseType?: string;
  dcqlQuery?: Record<string, unknown>;
  presentationDefinition?: Record<string, unknown>;
  transactionData?: string[];
  /** Break the request object in one way. */
  breakRequest?: 'typ' | 'client_id' | 'wallet_nonce' | 'signature';
  requestUriMethod?: 'get' | 'post';
  encValues?: string[];
}

export async function startMiniVerifier(options: MiniVerifierOptions = {}): Promise<MiniVerifier> {
  const ca = await createTestCa('CN=mini verifier root');
  const leaf = await ca.issue({ subject: 'CN=mini verifier', dnsName: 'localhost' });
  const clientId = `x509_hash:${createHash('sha256').update(leaf.der).digest('base64url')}`;
  const encryption = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const encryptionPublicJwk = { ...(await exportJWK(encryption.publicKey)), kid: 'enc-1', alg: 'ECDH-ES', use: 'enc' } as JWK & { kid: string };
  const nonce = randomBytes(16).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const requestPosts: Record<string, string>[] = [];
  const responses: Record<string, string>[] = [];
  let base = '';

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    if (req.url === '/request') {
      if (req.method === 'POST') requestPosts.push(form);
      const walletNonce = options.breakRequest === 'wallet_nonce' ? 'not-the-wallet-nonce' : form.wallet_nonce;
      const payload = {
        client_id: options.breakRequest === 'client_id' ? 'x509_hash:AAAA' : clientId,
        response_type: options.responseType ?? 'vp_token',
        response_mode: options.responseMode ?? 'direct_post.jwt',
        response_uri: `${base}/response`,
        nonce,
        state,
        ...(options.presentationDefinition ? { presentation_definition: options.presentationDefinition } : { dcql_query: options.dcqlQuery ?? { credentials: [] } }),
        ...(options.transactionData ? { transaction_data: options.transactionData } : {}),
        client_metadata: {
          jwks: { keys: [encryptionPublicJwk] },
          encrypted_response_enc_values_supported: options.encValues ?? ['A128GCM', 'A256GCM'],
          vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
        },
        aud: 'https://self-issued.me/v2',
        ...(walletNonce ? { wallet_nonce: walletNonce } : {}),
      };
      let jwt = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'ES256', typ: options.breakRequest === 'typ' ? 'JWT' : 'oauth-authz-req+jwt', x5c: [leaf.x5c] })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(await importJWK(leaf.privateJwk as JWK, 'ES256'));
      if (options.breakRequest === 'signature') jwt = `${jwt.slice(0, -4)}${jwt.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(jwt);
      return;
    }
    if (req.url === '/response' && req.method === 'POST') {
      responses.push(form);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const method = options.requestUriMethod ?? 'post';
  const authorizeUrl = `openid4vp://?${new URLSearchParams({ client_id: clientId, request_uri: `${base}/request`, request_uri_method: method })}`;
  return {
    authorizeUrl,
    clientId,
    nonce,
    state,
    responseUri: `${base}/response`,
    rootCertificatePem: ca.pem,
    encryptionPrivateJwk: await exportJWK(encryption.privateKey),
    encryptionPublicJwk,
    requestPosts,
    responses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
