import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { decodeJwt, decodeProtectedHeader, importX509, jwtVerify } from 'jose';
import { fetchBounded, type FetchBounds } from './fetch-bounded.js';
import { openid4vcCallbacks } from './openid4vc-callbacks.js';
import type { ReceivedRequest, WalletDcqlQuery, WalletPresentationDefinition } from './received-request.js';
import { DEFAULT_WALLET_METADATA } from './wallet-metadata.js';

export interface ReceiveOptions extends FetchBounds {
  /** Sent as `wallet_metadata` when request_uri_method=post. Default {@link DEFAULT_WALLET_METADATA}. */
  walletMetadata?: Record<string, unknown>;
  /** Leave `wallet_nonce` out of the POST (and do not expect it back). */
  omitWalletNonce?: boolean;
  /** PEM roots the verifier's request-signing chain must lead to. Default: trust any signer. */
  verifierTrustAnchors?: string[];
}

let insecureUrlsAllowed = false;
/**
 * @openid4vc/* refuse http:// request and response URIs unless told otherwise, and the switch
 * is process-wide. Tests on 127.0.0.1 need it, so the test wallet turns it on once.
 */
export function allowInsecureUrlsForTests(): void {
  if (insecureUrlsAllowed) return;
  setGlobalConfig({ allowInsecureUrls: true });
  insecureUrlsAllowed = true;
}

/**
 * Follows an `authorizeUrl` (`openid4vp://?client_id=…&request_uri=…&request_uri_method=post`):
 * fetches the request object itself — @openid4vc/openid4vp 0.4.6 would post the wallet metadata
 * as loose form fields instead of one `wallet_metadata` parameter — then lets the library verify
 * the JAR (signature with x5c[0], `x509_hash` client id, `wallet_nonce`) and adds the checks the
 * library skips (typ, ES256, HAIP chain shape). The client_id and wallet_nonce are checked again
 * here, whichever path verified the signature.
 */
export async function receiveAuthorizationRequest(authorizeUrl: string, options: ReceiveOptions = {}): Promise<ReceivedRequest> {
  allowInsecureUrlsForTests();
  const url = new URL(authorizeUrl);
  const clientId = url.searchParams.get('client_id');
  const requestUri = url.searchParams.get('request_uri');
  const method = url.searchParams.get('request_uri_method') ?? 'get';
  if (!clientId || !requestUri) throw new Error('test wallet: authorizeUrl needs client_id and request_uri');
  if (method !== 'get' && method !== 'post') throw new Error(`test wallet: request_uri_method ${method} is not get/post`);

  const walletNonce = method === 'post' && !options.omitWalletNonce ? randomBytes(16).toString('base64url') : undefined;
  const { response, body } = await fetchBounded(
    'request_uri',
    requestUri,
    method === 'post'
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/oauth-authz-req+jwt' },
          body: new URLSearchParams({
            wallet_metadata: JSON.stringify(options.walletMetadata ?? DEFAULT_WALLET_METADATA),
            ...(walletNonce ? { wallet_nonce: walletNonce } : {}),
          }),
        }
      : { headers: { accept: 'application/oauth-authz-req+jwt' } },
    options,
  );
  if (response.status !== 200) throw new RequestObjectFetchError(response.status, body);
  if (!response.headers.get('content-type')?.startsWith('application/oauth-authz-req+jwt')) {
    throw new Error(`test wallet: request object content type is ${response.headers.get('content-type')}`);
  }

  const requestObject = body.trim();
  const x5c = await checkRequestObjectHeader(requestObject, options.verifierTrustAnchors);
  const params = libraryCanResolve(requestObject)
    ? ((
        await resolveOpenid4vpAuthorizationRequest({
          authorizationRequestPayload: { client_id: clientId, request: requestObject },
          wallet: walletNonce ? { expectedNonce: walletNonce } : {},
          callbacks: openid4vcCallbacks,
        })
      ).authorizationRequestPayload as Record<string, unknown>)
    : await verifyRequestObjectWithJose(requestObject, x5c);
  if (params.client_id !== clientId) throw new Error('test wallet: request object client_id differs from the URL');
  if (clientId.startsWith('x509_hash:') && clientId !== `x509_hash:${createHash('sha256').update(Buffer.from(x5c[0]!, 'base64')).digest('base64url')}`) {
    throw new Error('test wallet: x509_hash client_id does not match x5c[0]');
  }
  if (walletNonce && params.wallet_nonce !== walletNonce) throw new Error('test wallet: wallet_nonce not echoed');
  return { ...toReceivedRequest(params), requestObject, x5c, ...(walletNonce ? { walletNonce } : {}) };
}

/**
 * @openid4vc/openid4vp 0.4.6 refuses `response_type=vp_token id_token` (SIOP) and cannot infer a
 * version for Presentation Exchange requests with an `x509_hash` client id; those are verified
 * with jose instead (the same checks: signature with x5c[0], client_id, wallet_nonce).
 */
function libraryCanResolve(requestObject: string): boolean {
  const payload = decodeJwt(requestObject);
  return payload.response_type === 'vp_token' && payload.presentation_definition === undefined;
}

async function verifyRequestObjectWithJose(requestObject: string, x5c: string[]): Promise<Record<string, unknown>> {
  const key = await importX509(`-----BEGIN CERTIFICATE-----\n${x5c[0]!.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`, 'ES256');
  const { payload } = await jwtVerify(requestObject, key, { algorithms: ['ES256'], typ: 'oauth-authz-req+jwt' });
  return payload as Record<string, unknown>;
}

/**
 * Thrown when the request_uri answers with anything but 200. The message names the status only:
 * whatever the URL answered may not be the caller's to show (an internal server's page), so the
 * body stays in `body` for callers that know whom they asked.
 */
export class RequestObjectFetchError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`test wallet: request_uri answered ${status}`);
    this.name = 'RequestObjectFetchError';
  }
}

/** typ, alg and the HAIP chain rules (leaf not self-signed, no trust anchor in x5c). */
export async function checkRequestObjectHeader(requestObject: string, trustAnchors?: string[]): Promise<string[]> {
  const { x5c, trusted } = await checkSignerHeader(decodeProtectedHeader(requestObject), trustAnchors);
  if (!trusted) throw new Error('test wallet: request object chain does not lead to a trusted verifier root');
  return x5c;
}

/**
 * The checks of one signature's protected header: typ, ES256, an x5c whose leaf is not
 * self-signed and which holds no trust anchor. `trusted` says whether the chain leads to one of
 * `trustAnchors` (always true without anchors: trust any signer).
 */
export async function checkSignerHeader(header: Record<string, unknown>, trustAnchors?: string[]): Promise<{ x5c: string[]; trusted: boolean }> {
  if (header.typ !== 'oauth-authz-req+jwt') throw new Error(`test wallet: request object typ is ${String(header.typ)}`);
  if (header.alg !== 'ES256') throw new Error(`test wallet: request object alg is ${String(header.alg)}`);
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((e) => typeof e === 'string')) throw new Error('test wallet: request object has no x5c');
  const chain = (x5c as string[]).map((entry) => new x509.X509Certificate(Buffer.from(entry, 'base64')));
  if (await chain[0]!.isSelfSigned()) throw new Error('test wallet: request object leaf certificate is self-signed');
  if (!trustAnchors) return { x5c: x5c as string[], trusted: true };
  const anchors = trustAnchors.map((anchor) => new x509.X509Certificate(anchor));
  if (chain.some((cert) => anchors.some((anchor) => anchor.equal(cert)))) throw new Error('test wallet: x5c contains the trust anchor');
  const top = chain.at(-1)!;
  let trusted = false;
  for (const anchor of anchors) if (await top.verify({ publicKey: anchor.publicKey, signatureOnly: true })) trusted = true;
  return { x5c: x5c as string[], trusted };
}

/** Whether a client_id is bound to an x5c leaf: `x509_hash` = SHA-256 of its DER, `x509_san_dns` = one of its dNSName SANs. */
export function clientIdMatchesLeaf(clientId: string, x5c: string[]): boolean {
  const der = Buffer.from(x5c[0]!, 'base64');
  if (clientId.startsWith('x509_hash:')) return clientId === `x509_hash:${createHash('sha256').update(der).digest('base64url')}`;
  if (clientId.startsWith('x509_san_dns:')) {
    const san = new x509.X509Certificate(der).getExtension(x509.SubjectAlternativeNameExtension);
    return san?.names.items.some((name) => name.type === 'dns' && name.value === clientId.slice('x509_san_dns:'.length)) ?? false;
  }
  return false;
}

/** Typed view of verified request parameters. */
export function toReceivedRequest(params: Record<string, unknown>): ReceivedRequest {
  const parseJson = <T>(value: unknown): T | undefined => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T | undefined));
  const nonce = params.nonce;
  if (typeof nonce !== 'string') throw new Error('test wallet: request has no nonce');
  const request: ReceivedRequest = {
    params,
    responseType: typeof params.response_type === 'string' ? params.response_type : 'vp_token',
    responseMode: typeof params.response_mode === 'string' ? params.response_mode : 'fragment',
    nonce,
  };
  if (typeof params.client_id === 'string') request.clientId = params.client_id;
  if (typeof params.state === 'string') request.state = params.state;
  if (typeof params.response_uri === 'string') request.responseUri = params.response_uri;
  const dcql = parseJson<WalletDcqlQuery>(params.dcql_query);
  if (dcql) request.dcqlQuery = dcql;
  const definition = parseJson<WalletPresentationDefinition>(params.presentation_definition);
  if (definition) request.presentationDefinition = definition;
  if (Array.isArray(params.transaction_data)) request.transactionData = params.transaction_data as string[];
  const clientMetadata = parseJson<Record<string, unknown>>(params.client_metadata);
  if (clientMetadata) request.clientMetadata = clientMetadata;
  return request;
}
