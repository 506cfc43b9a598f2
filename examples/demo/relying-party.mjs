// The demo's relying-party backend: the only code that holds the API key. The verifier page talks
// to these routes; they call the authorizer and bind every authorization to the browser session
// that started it (OpenID4VP 1.0 section 13.3), so a page reads only its own results.
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { ANNEX_C_PROTOCOL, ASKS, FLOWS, MAX_PURPOSE_LENGTH, PURPOSE_FORMAT } from './asks.mjs';

const API = '/openid4/vp/v1_0';
const COOKIE = 'demo_session';
const MAX_SESSIONS = 1000;
// One client address holds at most this many sessions (its oldest goes first), so it cannot push
// everyone else's sessions out of the MAX_SESSIONS above. Behind a proxy every visitor shares one address.
const MAX_SESSIONS_PER_ADDRESS = 20;
const MAX_AUTHORIZATIONS_PER_SESSION = 20;
// Live status relays a session may hold open; each holds one of the authorizer's event streams.
const MAX_RELAYS_PER_SESSION = 4;
const TERMINAL = new Set(['authorized', 'rejected', 'error', 'expired']);

/** An answer for the page: `status` and a message a person can read. */
export class PageError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * `call(path, init)` sends a request to the authorizer with the API key and resolves to its
 * Response. `origin` is where the demo's pages are served (the DC API origin).
 */
export function createRelyingParty({ call, origin }) {
  /**
   * Sessions by id, least recently used first: each maps authorization ids to how they were
   * created, and holds the status relays open for it (authorization id → AbortController).
   */
  const sessions = new Map();

  function drop(id) {
    const gone = sessions.get(id);
    sessions.delete(id);
    for (const relay of gone?.relays.values() ?? []) relay.abort(); // its streams go with it
  }

  function session(req, res, { create }) {
    const id = /(?:^|;\s*)demo_session=([A-Za-z0-9_-]{22,64})/.exec(req.headers.cookie ?? '')?.[1];
    const found = id ? sessions.get(id) : undefined;
    if (found) {
      sessions.delete(id);
      sessions.set(id, found);
      return found;
    }
    if (!create) return undefined;
    const address = req.socket.remoteAddress ?? '';
    const fresh = { id: randomBytes(24).toString('base64url'), address, authorizations: new Map(), relays: new Map(), lastRedirect: null };
    const fromAddress = [...sessions.values()].filter((s) => s.address === address);
    if (fromAddress.length >= MAX_SESSIONS_PER_ADDRESS) drop(fromAddress[0].id);
    else if (sessions.size >= MAX_SESSIONS) drop(sessions.keys().next().value);
    sessions.set(fresh.id, fresh);
    res.setHeader('set-cookie', `${COOKIE}=${fresh.id}; Path=/; HttpOnly; SameSite=Lax`);
    return fresh;
  }

  function owned(req, res, authorizationId) {
    const own = session(req, res, { create: false });
    const entry = own?.authorizations.get(authorizationId);
    if (!entry) throw new PageError(404, 'This verification was not started in this browser session (or the demo was restarted). Start a new one.');
    return { ...entry, session: own };
  }

  async function json(path, init) {
    const response = await call(path, init);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new PageError(response.status >= 500 ? 502 : response.status, authorizerMessage(body, response.status));
    return body;
  }

  return {
    /** POST {ask, purpose, flow} → what the page needs to show the request. */
    async create(req, res, input) {
      const ask = ASKS[input?.ask];
      const flow = FLOWS[input?.flow ?? 'redirect'];
      if (!ask) throw new PageError(400, `Choose what to ask for: ${Object.keys(ASKS).join(', ')}.`);
      if (!flow) throw new PageError(400, `Unknown flow; one of ${Object.keys(FLOWS).join(', ')}.`);
      const purpose = typeof input.purpose === 'string' ? input.purpose.trim() : '';
      if (purpose.length > MAX_PURPOSE_LENGTH) throw new PageError(400, `The purpose is limited to ${MAX_PURPOSE_LENGTH} characters.`);
      // An mdoc-only ask over the DC API is offered in both protocols, so one navigator.credentials.get
      // reaches an OpenID4VP wallet and Apple Wallet alike; Annex C carries no purpose and has no HAIP profile.
      const annexC = Boolean(flow.protocol && ask.annexC);
      const body = {
        responseMode: flow.responseMode,
        ...(annexC ? {} : { profile: 'haip' }),
        query: { type: 'DCQL', dcql: ask.dcql },
        ...(purpose && !annexC ? { responseTypeParameters: { verifier_info: [{ format: PURPOSE_FORMAT, data: purpose }] } } : {}),
        ...(flow.protocol ? { ...(annexC ? { protocols: [flow.protocol, ANNEX_C_PROTOCOL] } : { protocol: flow.protocol }), expectedOrigins: [origin] } : {}),
      };
      const created = await json(`${API}/authorizations`, { method: 'POST', body: JSON.stringify(body) });
      const own = session(req, res, { create: true });
      while (own.authorizations.size >= MAX_AUTHORIZATIONS_PER_SESSION) own.authorizations.delete(own.authorizations.keys().next().value);
      own.authorizations.set(created.authorizationId, { responseMode: flow.responseMode, ask: input.ask, protocol: null });
      const common = { authorizationId: created.authorizationId, expiresAt: created.expiresAt, ask: ask.label, purpose: purpose || null };
      // One request per protocol offered, in order: the page hands them all to navigator.credentials.get.
      if (flow.protocol) return { ...common, digitalCredentialGetRequest: created.digitalCredentialGetRequest, digitalCredentialGetRequests: created.digitalCredentialGetRequests ?? [created.digitalCredentialGetRequest] };
      own.lastRedirect = created.authorizationId;
      // Whole pixels per module keep the code crisp on screen and in screenshots.
      const modules = QRCode.create(created.authorizeUrl, { errorCorrectionLevel: 'M' }).modules.size;
      const qrSvg = await QRCode.toString(created.authorizeUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: (modules + 8) * 4, color: { dark: '#000000', light: '#ffffff' } });
      return { ...common, authorizeUrl: created.authorizeUrl, qrSvg };
    },

    async status(req, res, id) {
      owned(req, res, id);
      return json(`${API}/authorizations/${encodeURIComponent(id)}/status`);
    },

    /**
     * Pipes the authorizer's event stream (which needs the API key) to the page. One relay per
     * authorization (a new one ends the previous) and MAX_RELAYS_PER_SESSION per session, so one
     * visitor cannot hold the authorizer's streams that everyone shares; the page polls instead.
     */
    async events(req, res, id) {
      const { session: own } = owned(req, res, id);
      const previous = own.relays.get(id);
      if (previous) {
        previous.abort();
        own.relays.delete(id);
      }
      if (own.relays.size >= MAX_RELAYS_PER_SESSION) {
        throw new PageError(429, `This browser session already follows ${MAX_RELAYS_PER_SESSION} verifications live; this one shows its status by polling.`);
      }
      const relay = new AbortController();
      own.relays.set(id, relay);
      try {
        const upstream = await call(`${API}/authorizations/${encodeURIComponent(id)}/events`);
        if (!upstream.ok || !upstream.body) {
          const body = await upstream.json().catch(() => ({}));
          throw new PageError(upstream.status >= 500 ? upstream.status : 502, authorizerMessage(body, upstream.status));
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
        // A page that goes away cancels the authorizer's stream at once (its timers and listener go with it).
        await pipeToNode(upstream.body, res, relay.signal);
      } finally {
        if (own.relays.get(id) === relay) own.relays.delete(id);
      }
    },

    /** Status, policy results and disclosed credentials of a finished authorization (and the DC API protocol the wallet answered in). */
    async result(req, res, id) {
      const { ask, protocol } = owned(req, res, id);
      const path = `${API}/authorizations/${encodeURIComponent(id)}`;
      const { status } = await json(`${path}/status`);
      if (!TERMINAL.has(status)) return { status, ask, protocol, policyResults: [], credentials: [] };
      const [policy, credentials] = await Promise.all([json(`${path}/policy-response`), json(`${path}/credentials`)]);
      return { status, ask, protocol, policyResults: policy.data, credentials: credentials.credentials };
    },

    /**
     * What `navigator.credentials.get` returned (`{protocol, data}`), handed to the authorizer with
     * the page's origin; the authorizer verifies it by its protocol and refuses one it did not offer.
     */
    async dcApi(req, res, id, input) {
      const { responseMode, session: own } = owned(req, res, id);
      if (!responseMode.startsWith('dc_api')) throw new PageError(400, 'This verification is not a Digital Credentials API request.');
      if (typeof input?.data !== 'object' || input.data === null) throw new PageError(400, 'The browser returned no credential data.');
      // Without a protocol the data goes bare, which the authorizer accepts when it offered one protocol.
      const protocol = typeof input.protocol === 'string' ? input.protocol : null;
      const digitalCredentialGetResponse = protocol ? { protocol, data: input.data } : input.data;
      const answer = await json(`${API}/${encodeURIComponent(id)}/${responseMode}`, { method: 'POST', body: JSON.stringify({ origin, digitalCredentialGetResponse }) });
      const entry = own.authorizations.get(id);
      if (entry && protocol) entry.protocol = protocol; // accepted by the authorizer: the protocol it verified
      return { ...answer, protocol };
    },

    /**
     * The redirect the wallet sends the person to after a same-device flow: resolve the one-time
     * code against the authorization this session started, then show that result. A failure is
     * a notice code the page maps to its own words (a query string is anyone's to write).
     */
    async callback(req, res, responseCode) {
      const own = session(req, res, { create: false });
      if (!own?.lastRedirect) return '/?notice=wrong-session';
      const expected = own.lastRedirect;
      const response = await call(`${API}/response-code/resolve`, { method: 'POST', body: JSON.stringify({ response_code: responseCode ?? '', authorization_id: expected }) });
      if (!response.ok) {
        await response.body?.cancel();
        return '/?notice=code-refused';
      }
      const body = await response.json().catch(() => ({}));
      own.lastRedirect = null;
      return `/?authorization=${encodeURIComponent(body.authorization_id)}`;
    },
  };
}

/** Writes a web stream to a node:http response; the response closing or `signal` aborting cancels the stream. */
export async function pipeToNode(body, res, signal) {
  const reader = body.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  res.on('close', cancel);
  signal?.addEventListener('abort', cancel);
  if (signal?.aborted) cancel();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } catch {
    // the stream broke: end the answer; a page falls back to polling
  } finally {
    res.off('close', cancel);
    signal?.removeEventListener('abort', cancel);
  }
  res.end();
}

function authorizerMessage(body, status) {
  const details = Array.isArray(body?.errors) ? body.errors.map((e) => (e.pointer ? `${e.pointer}: ${e.detail}` : e.detail)).join('; ') : '';
  const message = typeof body?.message === 'string' ? body.message : `The authorizer answered ${status}.`;
  return details ? `${message} (${details})` : message;
}
