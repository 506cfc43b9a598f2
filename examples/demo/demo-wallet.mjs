// The demo's test wallet: the real test wallet of @vp-authorizer/testing (real signatures, real
// encryption), holding a PID and an mDL from the demo issuer, and copies of both that a verifier
// must refuse: from an untrusted issuer, and expired. A person drives it from the /wallet page.
import { X509Certificate, randomBytes, randomUUID } from 'node:crypto';
import { DateOnly } from '@animo-id/mdoc';
import { RequestObjectFetchError, createTestIssuer, createTestWallet, matchDcql } from '@vp-authorizer/testing';
import { PURPOSE_FORMAT } from './asks.mjs';

const MDL_NAMESPACE = 'org.iso.18013.5.1';
const PID_CLAIMS = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1964-08-12',
  nationalities: ['DE'],
  address: { street_address: 'Heidestraße 17', locality: 'Köln', postal_code: '51147', country: 'DE' },
};
const mdlElements = () => ({
  given_name: 'Erika',
  family_name: 'Mustermann',
  birth_date: new DateOnly('1964-08-12'),
  issue_date: new DateOnly('2023-01-15'),
  expiry_date: new DateOnly('2033-01-14'),
  issuing_country: 'DE',
  document_number: 'T22000129',
  driving_privileges: [{ vehicle_category_code: 'B', issue_date: new DateOnly('2023-01-15'), expiry_date: new DateOnly('2033-01-14') }],
});

/** What the person can make the wallet present; all but `valid` must be refused by the verifier. */
export const PRESENTATION_CHOICES = {
  valid: 'My credential, as issued',
  'untrusted-issuer': 'A copy from an issuer the verifier does not trust',
  expired: 'An expired copy',
  'wrong-nonce': 'My credential, bound to another request (wrong nonce)',
};

const MAX_OPEN_REQUESTS = 100;
const OPEN_REQUEST_TTL_MS = 10 * 60_000;

/** A wallet the page cannot satisfy or a request it cannot read: the message is shown to the person. */
export class WalletError extends Error {
  constructor(message, status = 400) {
    super(message);
    this.status = status;
  }
}

/**
 * Creates the wallet. `issuer` is the demo issuer the verifier trusts; `verifierTrustAnchors`
 * are the roots the wallet accepts request signatures from (the demo's signing anchor);
 * `requestUriBase` is the demo authorizer's public base URL: the only place the wallet fetches
 * request objects from. It runs inside the demo's server, so a request_uri elsewhere would make
 * the server fetch whatever a page names (an internal address included).
 */
export async function createDemoWallet({ issuer, verifierTrustAnchors, requestUriBase }) {
  const base = new URL(requestUriBase);
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const untrustedIssuer = await createTestIssuer({ commonName: 'Unknown issuer (not trusted by the demo verifier)' });
  const holders = {
    valid: await holderWith(issuer, {}),
    'untrusted-issuer': await holderWith(untrustedIssuer, {}),
    // Expired a day ago; the issuer's signature is still good.
    expired: await holderWith(issuer, { expiresInSeconds: -86_400 }),
  };
  holders['wrong-nonce'] = holders.valid;
  /** Requests the page opened and has not answered yet, by handle (oldest first). */
  const open = new Map();

  function remember(request) {
    const now = Date.now();
    for (const [handle, entry] of open) if (entry.expiresAt <= now || open.size >= MAX_OPEN_REQUESTS) open.delete(handle);
    const handle = randomUUID();
    open.set(handle, { request, expiresAt: now + OPEN_REQUEST_TTL_MS });
    return handle;
  }

  return {
    /** Fetches and verifies the request behind an authorizeUrl; answers what the page shows. */
    async open(authorizeUrl) {
      if (typeof authorizeUrl !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(authorizeUrl.trim())) {
        throw new WalletError('Paste the authorization request: a URL such as openid4vp://?client_id=…&request_uri=…');
      }
      let requestUri;
      try {
        requestUri = new URL(new URL(authorizeUrl.trim()).searchParams.get('request_uri') ?? '');
      } catch {
        throw new WalletError('The authorization request has no request_uri: a URL such as openid4vp://?client_id=…&request_uri=… is needed.');
      }
      // Compared after parsing, as fetch() will see it: `..` and percent-encoded dots are resolved.
      if (requestUri.origin !== base.origin || !requestUri.pathname.startsWith(basePath) || requestUri.username || requestUri.password) {
        throw new WalletError(`This test wallet opens only this demo's requests: the request_uri must start with ${base.origin}${basePath}.`);
      }
      let request;
      try {
        request = await holders.valid.receive(authorizeUrl.trim(), { verifierTrustAnchors });
      } catch (error) {
        throw new WalletError(`The wallet could not read this request: ${readable(error)}`);
      }
      return { handle: remember(request), ...describeRequest(request, holders.valid.credentials) };
    },

    /**
     * Answers a Digital Credentials API request as a platform wallet would: `getRequest` is one
     * entry of `navigator.credentials.get({digital: {requests}})`, `origin` the page's origin the
     * browser vouches for. Resolves to the `DigitalCredential` members `{protocol, data}`.
     */
    async answerDcApi(getRequest, origin, choice = 'valid') {
      if (!Object.hasOwn(PRESENTATION_CHOICES, choice)) throw new WalletError(`Unknown choice "${choice}".`);
      if (typeof getRequest?.protocol !== 'string' || typeof getRequest.data !== 'object' || typeof origin !== 'string') {
        throw new WalletError('Send {request: {protocol, data}, origin}: one Digital Credentials API request and the origin of the page.');
      }
      const holder = holders[choice];
      if (getRequest.protocol === 'org-iso-mdoc') {
        // ISO/IEC 18013-7 Annex C, as Apple Wallet answers it: HPKE to the request's key, DeviceAuth
        // over the transcript of `origin` (or of another origin, for a presentation bound elsewhere).
        try {
          const tamper = choice === 'wrong-nonce' ? { deviceAuthOrigin: 'https://elsewhere.example' } : undefined;
          const answered = await holder.respondAnnexC(getRequest, { origin, ...(tamper ? { tamper } : {}) });
          return answered.digitalCredentialGetResponse;
        } catch (error) {
          throw new WalletError(`The wallet could not answer this org-iso-mdoc request: ${readable(error)}`);
        }
      }
      let request;
      try {
        request = await holder.receiveDcApi(getRequest, origin, { verifierTrustAnchors });
      } catch (error) {
        throw new WalletError(`The wallet could not read this request: ${readable(error)}`);
      }
      const prepared = await holder.createResponse(request, { presentations: presentationsFor(request, holder, choice) });
      return { protocol: getRequest.protocol, data: prepared.digitalCredentialGetResponse };
    },

    /**
     * Answers an opened request: `choice` is a key of PRESENTATION_CHOICES, or `decline` (an
     * `access_denied` error response). Resolves to what the verifier's response endpoint said.
     */
    async answer(handle, choice) {
      const entry = typeof handle === 'string' ? open.get(handle) : undefined;
      if (!entry || entry.expiresAt <= Date.now()) throw new WalletError('This request is no longer open in the wallet; open it again.', 404);
      if (choice !== 'decline' && !Object.hasOwn(PRESENTATION_CHOICES, choice)) throw new WalletError(`Unknown choice "${choice}".`);
      const { request } = entry;
      open.delete(handle);
      const holder = holders[choice] ?? holders.valid;
      let prepared;
      if (choice === 'decline') {
        prepared = {
          responseMode: request.responseMode,
          responseUri: request.responseUri,
          payload: {},
          form: { error: 'access_denied', error_description: 'The holder declined to share the credential.', ...(request.state ? { state: request.state } : {}) },
        };
      } else {
        prepared = await holder.createResponse(request, { presentations: presentationsFor(request, holder, choice) });
      }
      const result = await holder.submit(prepared);
      const body = typeof result.body === 'object' && result.body !== null ? result.body : {};
      return {
        httpStatus: result.status,
        accepted: result.status === 200 && choice !== 'decline',
        declined: choice === 'decline',
        error: body.error ?? null,
        errorDescription: body.error_description ?? (result.status === 200 ? null : String(result.body).slice(0, 500)),
        redirectUri: body.redirect_uri ?? null,
      };
    },
  };
}

/** What `choice` presents: the holder's matching credentials, bound to another nonce for `wrong-nonce`. */
function presentationsFor(request, holder, choice) {
  const presentations = matchOrExplain(request, holder.credentials);
  if (choice !== 'wrong-nonce') return presentations;
  const nonce = randomBytes(16).toString('base64url');
  return Object.fromEntries(Object.entries(presentations).map(([id, list]) => [id, list.map((p) => ({ ...p, tamper: { nonce } }))]));
}

async function holderWith(issuer, { expiresInSeconds }) {
  const wallet = await createTestWallet();
  const validity = expiresInSeconds === undefined ? {} : { expiresInSeconds };
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: PID_CLAIMS, ...validity });
  await wallet.addMdoc(issuer, { docType: 'org.iso.18013.5.1.mDL', namespaces: { [MDL_NAMESPACE]: mdlElements() }, ...validity });
  return wallet;
}

/**
 * The verifier's own words when its request endpoint refused (the `error_description` of an OAuth
 * error body), else the error. Only the demo's authorizer is ever asked (see open()), and only
 * that one member of its answer is shown, never the body as it came.
 */
function readable(error) {
  if (error instanceof RequestObjectFetchError) {
    let description;
    try {
      description = JSON.parse(error.body)?.error_description;
    } catch {
      // not JSON: the status alone
    }
    return typeof description === 'string' ? `the verifier answered ${error.status}: ${description.slice(0, 300)}` : `the verifier answered ${error.status}`;
  }
  return String(error.message ?? error).replace(/^test wallet: /, '');
}

function matchOrExplain(request, credentials) {
  if (!request.dcqlQuery) throw new WalletError('The demo wallet answers DCQL requests only.');
  try {
    return matchDcql(request.dcqlQuery, credentials);
  } catch (error) {
    throw new WalletError(`The wallet holds no credential that answers this request (${error.message.replace(/^test wallet: /, '')}). Decline it instead.`);
  }
}

/** What the consent screen shows: who asks, why, and for what. */
function describeRequest(request, credentials) {
  const leaf = request.x5c?.[0] ? new X509Certificate(Buffer.from(request.x5c[0], 'base64')) : undefined;
  const commonName = leaf?.subject.split('\n').find((line) => line.startsWith('CN='))?.slice(3);
  const purposes = (request.params.verifier_info ?? []).filter((info) => info?.format === PURPOSE_FORMAT && typeof info.data === 'string');
  const query = request.dcqlQuery;
  let satisfiable = true;
  try {
    if (query) matchDcql(query, credentials);
    else satisfiable = false;
  } catch {
    satisfiable = false;
  }
  return {
    verifier: {
      name: commonName ?? request.clientId ?? 'unknown verifier',
      clientId: request.clientId ?? null,
      certificateSubject: leaf ? leaf.subject.split('\n').join(', ') : null,
      certificateIssuer: leaf ? leaf.issuer.split('\n').join(', ') : null,
      // receive() refuses a request whose signature does not chain to the wallet's anchors.
      verified: Boolean(leaf),
    },
    purpose: purposes.map((info) => info.data).join(' ') || null,
    responseMode: request.responseMode,
    credentials: (query?.credentials ?? []).map((c) => ({
      id: c.id,
      format: c.format,
      type: c.meta?.vct_values?.join(', ') ?? c.meta?.doctype_value ?? c.meta?.type_values?.flat().join(', ') ?? null,
      claims: (c.claims ?? []).map((claim) => claim.path),
    })),
    alternatives: Boolean(query?.credential_sets?.some((set) => set.options.length > 1)),
    satisfiable,
    choices: PRESENTATION_CHOICES,
  };
}
