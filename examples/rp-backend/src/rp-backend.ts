import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type AuthorizerClient, isAuthorizerApiError } from '@vp-authorizer/client';

export interface RpBackendOptions {
  client: AuthorizerClient;
  /** Where the wallet sends the user back (`?response_code=…` is appended by the authorizer). */
  callbackUrl: string;
  /** The credential the RP asks for: one SD-JWT VC of this type with these claims. */
  vct: string;
  claims: string[];
}

interface Session {
  authorizationId: string;
}

const SESSION_COOKIE = 'rp_session';

/**
 * A relying party's backend: `POST /login` starts a presentation and answers the wallet link,
 * `GET /login/status` is what the browser polls, and `GET /callback?response_code=…` is where the
 * wallet redirects; it resolves the code for the session that started the flow (so a code relayed
 * into another session is refused) and reads the verified claims.
 */
export function createRpBackend(options: RpBackendOptions): RequestListener {
  const { client } = options;
  const sessions = new Map<string, Session>();

  async function login(res: ServerResponse): Promise<void> {
    const created = await client.createAuthorization({
      responseMode: 'direct_post.jwt',
      redirectUri: options.callbackUrl,
      query: {
        type: 'DCQL',
        dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [options.vct] }, claims: options.claims.map((name) => ({ path: [name] })) }] },
      },
    });
    if (!('authorizeUrl' in created)) return send(res, 502, { error: 'expected a wallet link' });
    const sessionId = randomBytes(16).toString('base64url');
    sessions.set(sessionId, { authorizationId: created.authorizationId });
    send(res, 200, { authorizeUrl: created.authorizeUrl, expiresAt: created.expiresAt }, [`${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax`]);
  }

  async function status(session: Session, res: ServerResponse): Promise<void> {
    const { status } = await client.getAuthorizationStatus(session.authorizationId);
    send(res, 200, { status });
  }

  async function callback(session: Session, responseCode: string, res: ServerResponse): Promise<void> {
    let resolved;
    try {
      // A fresh Idempotency-Key per code: a retry of this call (its answer lost) would send the same one.
      resolved = await client.resolveResponseCode({ response_code: responseCode, authorization_id: session.authorizationId }, { idempotencyKey: randomUUID() });
    } catch (error) {
      // Unknown, used or expired; issued for another session's authorization (and now burnt); a code that is not one.
      if (isAuthorizerApiError(error, 'response_code.not_found', 'response_code.authorization_mismatch', 'request.invalid_body')) return send(res, 400, { error: error.type });
      throw error;
    }
    if (resolved.status !== 'authorized') return send(res, 403, { status: resolved.status });
    const { credentials } = await client.getCredentials(resolved.authorization_id);
    send(res, 200, { status: 'authorized', claims: credentials[0]?.claims ?? {} });
  }

  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://rp.invalid');
    const session = sessions.get(cookie(req, SESSION_COOKIE) ?? '');
    const route = `${req.method} ${url.pathname}`;
    const handled =
      route === 'POST /login'
        ? login(res)
        : !session && (route === 'GET /login/status' || route === 'GET /callback')
          ? Promise.resolve(send(res, 401, { error: 'no login in progress' }))
          : route === 'GET /login/status'
            ? status(session!, res)
            : route === 'GET /callback'
              ? callback(session!, url.searchParams.get('response_code') ?? '', res)
              : Promise.resolve(send(res, 404, { error: 'not found' }));
    // The authorizer refused or could not be reached: a bad gateway for the browser, with the code only.
    handled.catch((error: unknown) => send(res, 502, { error: isAuthorizerApiError(error) ? `the authorizer answered ${error.status} ${error.type}` : 'the authorizer could not be reached' }));
  };
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown, cookies: string[] = []): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...(cookies.length ? { 'set-cookie': cookies } : {}) });
  res.end(JSON.stringify(body));
}
