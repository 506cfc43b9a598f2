// The authorizer of this Next.js app: built once per server process from the examples' environment
// variables (docs/examples-configuration.md) and shared by every route handler.
import { corsDecision, resolveCorsSource } from '@vp-authorizer/core/http';
import { authorizerFromConfig, configFromEnv } from '@vp-authorizer/server';

/** Where the route handlers serve the HTTP API (app/authz/[...path]); PUBLIC_BASE_URL's path must match it. */
export const MOUNT_PATH = '/authz';
/** The instance authorizerFromConfig builds. */
export const INSTANCE = 'main';

/**
 * The one authorizer of this process, kept on globalThis rather than in a module variable: `next
 * dev` re-evaluates route modules on every edit, and each route's bundle may hold its own copy of
 * this module, so a module variable would build a second authorizer — a new signing chain, a new
 * memory store that has never heard of the pending authorizations (wallets then get 404), and the
 * old one's timers still running. PUBLIC_BASE_URL, or http://HOST:PORT/authz (PORT as `next start`
 * reads it, default 3000): never the Host header of whichever request comes first.
 * @returns {Promise<import('@vp-authorizer/server').ConfiguredAuthorizer & { config: import('@vp-authorizer/server').EnvConfig }>}
 */
export function configuredAuthorizer() {
  const slot = /** @type {{ vpAuthorizer?: ReturnType<typeof configuredAuthorizer> }} */ (globalThis);
  slot.vpAuthorizer ??= create().catch((error) => {
    slot.vpAuthorizer = undefined; // a bad environment fails each request with its message until fixed
    throw error;
  });
  return slot.vpAuthorizer;
}

async function create() {
  const config = configFromEnv(process.env, { defaultPort: 3000 });
  // The Postgres store's migrations are applied at start, as in the other examples.
  const configured = await authorizerFromConfig(config, { origin: `http://${config.host}:${config.port}`, mountPath: MOUNT_PATH, store: { migrate: true } });
  console.log(`vp-authorizer: serving ${config.publicBaseUrl ?? `http://${config.host}:${config.port}${MOUNT_PATH}`}; API key ${config.apiKey ? '(from AUTHZ_API_KEY)' : `${configured.apiKey} (generated; set AUTHZ_API_KEY to choose one)`}`);
  return { ...configured, config };
}

/**
 * EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN around a fetch handler: preflights answered here,
 * the CORS headers added to every answer (browsers send the API key in Authorization).
 * @param {Request} request
 * @param {{ enabled: boolean; origin?: string[] }} settings
 * @param {() => Promise<Response>} handle
 */
export async function withCors(request, settings, handle) {
  const config = resolveCorsSource({ ...settings, allowHeaders: ['Authorization'] });
  if (!config.enabled) return handle();
  const decision = corsDecision(config, {
    method: request.method,
    origin: request.headers.get('origin'),
    accessControlRequestMethod: request.headers.get('access-control-request-method'),
    accessControlRequestHeaders: request.headers.get('access-control-request-headers'),
  });
  if (decision.preflight) return new Response(null, { status: 204, headers: decision.headers });
  const response = await handle();
  for (const [name, value] of decision.headers) {
    if (name === 'Vary') response.headers.append('Vary', value);
    else response.headers.set(name, value);
  }
  return response;
}
