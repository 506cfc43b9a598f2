// The verifier page: asks its own backend (the relying party, which holds the API key) to create
// an authorization, shows it as a QR code and links, follows its status and shows the result.
import { ASKS } from './asks.js';
import { $, motion, TECHNICAL_CLAIMS, api, claimList, el, formatName, label, typeName } from './common.js';

const TERMINAL = new Set(['authorized', 'rejected', 'error', 'expired']);
const POLICY_NAMES = {
  format: 'Credential format',
  credentialQuery: 'Matches the request',
  trustedIssuer: 'Trusted issuer',
  proof: 'Issuer signature',
  notBefore: 'Already valid',
  notAfter: 'Not expired',
  holderBinding: 'Holder binding',
  status: 'Revocation status',
};
// The check each error code's family belongs to: a failure that another check reports again (the
// signature check refusing a chain that leads to no trusted root) is shown once, under its owner.
const CODE_OWNERS = {
  trusted_issuer: 'trustedIssuer',
  trust_list: 'trustedIssuer',
  credential_query: 'credentialQuery',
  holder_binding: 'holderBinding',
  status: 'status',
  proof: 'proof',
  format: 'format',
};
// Wallet error responses (OAuth `error` values): the wallet answered no presentation, which is not a check that failed.
const WALLET_CODE_PREFIX = 'wallet.';
const STATUS_TEXT = {
  created: 'Waiting for a wallet to open the request…',
  pending: 'The wallet opened the request; waiting for its answer…',
  processing: 'The wallet answered; checking the presentation…',
  authorized: 'Verified',
  rejected: 'Refused',
  error: 'The presentation could not be checked',
  expired: 'The request expired before a wallet answered',
};

// What /demo/callback may report; the query string carries only the code, never text to show.
const NOTICES = {
  'wrong-session': 'The wallet returned to a browser session that did not start this verification, so the result is not shown here.',
  'code-refused': "The wallet's response code was not accepted (already used, expired, or for another verification). Start a new verification.",
};

let current = null; // { id, stop() }

function showStatus(state) {
  const status = $('status');
  status.dataset.state = state === 'created' || state === 'pending' ? 'waiting' : state;
  status.textContent = STATUS_TEXT[state] ?? state;
}

function showError(message) {
  $('form-error').textContent = message;
  $('form-error').hidden = !message;
}

/** Follows one authorization: the event stream, or polling when the stream is unavailable. */
function follow(id) {
  current?.stop();
  let stopped = false;
  let source = null;
  let timer = null;
  const stop = () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
  };
  current = { id, stop };
  const seen = (body) => {
    if (stopped) return;
    showStatus(body.processing ? 'processing' : body.status);
    if (TERMINAL.has(body.status)) {
      stop();
      $('request-card').hidden = true; // answered or expired: the code cannot be used again
      loadResult(id);
    }
  };
  const poll = async () => {
    if (stopped) return;
    try {
      seen(await api(`/demo/authorizations/${id}/status`));
    } catch (error) {
      showError(error.message);
      return;
    }
    if (!stopped) timer = setTimeout(poll, 1500);
  };
  if (typeof EventSource === 'undefined') return void poll();
  source = new EventSource(`/demo/authorizations/${id}/events`);
  source.addEventListener('status', (event) => seen(JSON.parse(event.data)));
  // A stream that fails (or ends before a terminal status) is replaced by polling.
  source.onerror = () => {
    source.close();
    if (!stopped) poll();
  };
}

async function loadResult(id) {
  try {
    renderResult(await api(`/demo/authorizations/${id}/result`));
  } catch (error) {
    showError(error.message);
  }
}

function renderResult({ status, ask, protocol, policyResults, credentials }) {
  $('result-card').hidden = false;
  // Which protocol a Digital Credentials API wallet answered in (null for the QR code / link flows).
  $('answered-protocol').textContent = protocol ? `Answered through the Digital Credentials API in ${protocolName(protocol)}.` : '';
  $('answered-protocol').hidden = !protocol;
  const asked = document.querySelector(`input[name="ask"][value="${CSS.escape(ask ?? '')}"]`);
  if (asked) asked.checked = true;
  showStatus(status);
  const failures = policyResults.filter((result) => result.error);
  const verdict = $('verdict');
  verdict.replaceChildren();
  if (status === 'authorized') {
    verdict.className = 'verdict ok';
    verdict.append(el('h3', {}, 'Accepted'), el('p', {}, `The wallet presented ${credentials.length === 1 ? 'a credential' : `${credentials.length} credentials`} that passed every check.`));
  } else if (walletError(failures)) {
    const { code, description } = walletError(failures);
    verdict.className = 'verdict bad';
    verdict.append(
      el('h3', {}, code === 'access_denied' ? 'Declined by the wallet' : 'The wallet answered with an error'),
      el('p', { class: 'reason', id: 'refusal-reason' }, el('strong', {}, 'Wallet error: '), el('code', {}, code), ` — ${description}`),
    );
  } else {
    verdict.className = 'verdict bad';
    const root = failures[0]?.error;
    const heading = { rejected: 'Refused', error: 'Not verified', expired: 'Expired' }[status] ?? status;
    verdict.append(el('h3', {}, heading));
    if (root) {
      verdict.append(el('p', { class: 'reason', id: 'refusal-reason' }, el('strong', {}, 'Reason: '), root.title ?? root.detail ?? root.code));
      if (root.detail && root.detail !== root.title) verdict.append(el('p', { class: 'reason small' }, sentence(root.detail)));
    }
    else verdict.append(el('p', { class: 'reason', id: 'refusal-reason' }, status === 'expired' ? 'No wallet answered in time. Start a new request.' : 'The authorizer gave no reason.'));
  }
  renderClaims(credentials);
  renderPolicies(policyResults);
  $('result-card').scrollIntoView({ behavior: motion(), block: 'start' });
}

const sentence = (text) => text.replace(/^./, (c) => c.toUpperCase());

/** The error's title, and its detail below it when the detail adds something. */
function reasonText(error) {
  const title = error.title ?? error.detail ?? error.code;
  const detail = error.detail && error.detail !== title ? el('span', { class: 'detail' }, sentence(error.detail)) : null;
  return [title, detail];
}

function renderClaims(credentials) {
  const box = $('claims');
  box.replaceChildren();
  if (credentials.length === 0) return;
  box.append(el('h3', {}, 'Disclosed claims'));
  for (const credential of credentials) {
    const personal = Object.entries(credential.claims).filter(([name]) => !TECHNICAL_CLAIMS.has(name));
    const technical = Object.entries(credential.claims).filter(([name]) => TECHNICAL_CLAIMS.has(name));
    const card = el('article', { class: 'credential', 'aria-label': typeName(credential.credentialType) },
      el('h4', {}, typeName(credential.credentialType)),
      el('p', { class: 'type muted small' }, `${formatName(credential.format)} · ${credential.credentialType} · presented for “${credential.path[0]}”`),
      claimList(personal),
    );
    const details = [];
    if (technical.length > 0) details.push(claimList(technical));
    if (credential.namespaces) details.push(el('p', { class: 'small muted' }, `Namespaces: ${Object.keys(credential.namespaces).join(', ')}`));
    if (details.length > 0) card.append(el('details', {}, el('summary', {}, 'Technical details'), ...details));
    box.append(card);
  }
}

function renderPolicies(results) {
  const body = $('policy-rows');
  body.replaceChildren();
  for (const result of results) {
    const { name, badge, tone, details } = policyRow(result, results);
    body.append(el('tr', { class: tone === 'failed' ? 'failed' : null, 'data-policy': result.policy },
      el('td', {}, name, el('span', { class: 'codes mono small' }, `${result.policy} · ${result.service}`)),
      el('td', { class: 'mono small path' }, result.path.length ? result.path.map((part, i) => (typeof part === 'number' ? (i === 1 ? `#${part + 1}` : `doc ${part + 1}`) : part)).join(' › ') : 'whole response'),
      el('td', {}, el('span', { class: `badge ${tone}` }, badge)),
      el('td', {}, details),
    ));
  }
  $('policy-section').hidden = results.length === 0;
}

/** How one policy result reads in the checks table: its name, badge (and its tone) and details. */
function policyRow(result, results) {
  const name = POLICY_NAMES[result.policy] ?? label(result.policy);
  const error = result.error;
  if (!error) {
    if (notChecked(result.data)) return { name, badge: 'Not checked', tone: 'muted', details: el('span', { class: 'small muted' }, notCheckedReason(result)) };
    return { name, badge: 'Passed', tone: 'passed', details: summary(result.data) };
  }
  if (typeof error.code === 'string' && error.code.startsWith(WALLET_CODE_PREFIX)) {
    const { code, description } = walletError([result]);
    return {
      name: "Wallet's answer",
      badge: code === 'access_denied' ? 'Declined' : 'Wallet error',
      tone: 'failed',
      details: [el('span', {}, description), el('span', { class: 'codes mono small' }, `error=${code}`)],
    };
  }
  const owner = ownerOf(error.code);
  if (owner && owner !== result.policy && results.some((other) => other.policy === owner && other.error?.code === error.code && samePath(other.path, result.path))) {
    const ownerName = POLICY_NAMES[owner] ?? label(owner);
    return { name, badge: 'Not verified', tone: 'muted', details: el('span', { class: 'small muted' }, `Not verified because of the failure shown under “${ownerName}”.`) };
  }
  return { name, badge: 'Failed', tone: 'failed', details: [reasonText(error), el('span', { class: 'codes mono small' }, error.code)] };
}

/** A check that passed without running (`{checked: false, reason}`: no status claim, checks disabled, binding waived). */
const notChecked = (data) => data !== null && typeof data === 'object' && data.checked === false;

function notCheckedReason(result) {
  const reason = typeof result.data.reason === 'string' ? result.data.reason : '';
  const source = reason ? el('span', { class: 'codes small' }, `(${reason})`) : null;
  // A revocation check asks the status list the credential points to; a credential that points to none has nothing to ask.
  if (result.policy === 'status' && /\bno (status|credentialStatus)\b/.test(reason)) {
    return ['The credential carries no status reference, so there is no revocation status to check.', source];
  }
  if (!reason && result.policy === 'notBefore') return 'The credential names no start of validity.';
  if (!reason && result.policy === 'notAfter') return 'The credential names no expiry.';
  return reason ? `${sentence(reason)}.` : 'This check did not apply to the credential.';
}

const ownerOf = (code) => (typeof code === 'string' ? CODE_OWNERS[code.split('.')[0]] : undefined);
const samePath = (a, b) => a.length === b.length && a.every((part, i) => part === b[i]);

/** The wallet's OAuth error (`wallet.access_denied` → `access_denied`) and its description, when the wallet answered one. */
function walletError(failures) {
  const error = failures.find((result) => typeof result.error?.code === 'string' && result.error.code.startsWith(WALLET_CODE_PREFIX))?.error;
  if (!error) return null;
  // `wallet.unknown`: the wallet's value was not a well-formed OAuth error code; the title says so.
  return { code: error.code.slice(WALLET_CODE_PREFIX.length), description: error.detail && error.detail !== error.title ? error.detail : error.title };
}

function summary(data) {
  if (!data) return '';
  return el('span', { class: 'small muted' }, Object.entries(data)
    .filter(([, value]) => value !== null && typeof value !== 'object')
    .slice(0, 3)
    .map(([name, value]) => `${name}: ${value}`)
    .join(' · '));
}

function resetResult() {
  $('result-card').hidden = true;
  $('verdict').replaceChildren();
  $('claims').replaceChildren();
  $('policy-rows').replaceChildren();
  showError('');
}

// The purpose follows the choice until the person writes their own.
let proposedPurpose = $('purpose').value;
for (const radio of document.querySelectorAll('input[name="ask"]')) {
  radio.addEventListener('change', () => {
    const next = ASKS[radio.value]?.purpose;
    if (!radio.checked || !next || $('purpose').value !== proposedPurpose) return;
    $('purpose').value = proposedPurpose = next;
  });
}

async function create(flow) {
  resetResult();
  const form = new FormData($('ask-form'));
  return api('/demo/authorizations', { ask: form.get('ask'), purpose: form.get('purpose'), flow });
}

$('ask-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = $('create');
  button.disabled = true;
  try {
    const created = await create('redirect');
    $('request-card').hidden = false;
    $('qr').innerHTML = created.qrSvg; // SVG markup made by the demo's own backend from the URL
    $('qr').dataset.authorizeUrl = created.authorizeUrl;
    $('authorize-url').textContent = created.authorizeUrl;
    $('same-device').href = created.authorizeUrl;
    $('test-wallet-link').href = `/wallet?request=${encodeURIComponent(created.authorizeUrl)}`;
    $('asked').textContent = created.ask;
    $('expires').textContent = new Date(created.expiresAt).toLocaleTimeString();
    $('expires').dateTime = created.expiresAt;
    showStatus('created');
    follow(created.authorizationId);
    $('request-card').scrollIntoView({ behavior: motion(), block: 'start' });
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
});

// The Digital Credentials API. The button is always there and always says what happened: no API in
// this browser, the person cancelled, an error, or which protocol the wallet answered in.
const PROTOCOL_NAMES = {
  'openid4vp-v1-signed': 'OpenID4VP (signed request)',
  'openid4vp-v1-unsigned': 'OpenID4VP (unsigned request)',
  'openid4vp-v1-multisigned': 'OpenID4VP (multi-signed request)',
  'org-iso-mdoc': 'ISO/IEC 18013-7 Annex C (org-iso-mdoc)',
};
const protocolName = (protocol) => PROTOCOL_NAMES[protocol] ?? String(protocol);
const hasDcApi = () => typeof window.DigitalCredential !== 'undefined' && typeof navigator.credentials?.get === 'function';

function showDcApiStatus(message, state) {
  const status = $('dc-api-status');
  status.textContent = message;
  status.dataset.state = state;
  status.hidden = !message;
}

$('dc-api-button').addEventListener('click', async () => {
  const button = $('dc-api-button');
  showError('');
  if (!hasDcApi()) {
    showDcApiStatus('This browser does not offer the Digital Credentials API (navigator.credentials.get with digital requests). Use a browser that has it, or create a request and scan its QR code.', 'error');
    return;
  }
  button.disabled = true;
  showDcApiStatus('Creating the request…', 'waiting');
  try {
    const created = await create($('dc-api-signed').checked ? 'dc-api-signed' : 'dc-api-unsigned');
    $('request-card').hidden = true;
    const requests = created.digitalCredentialGetRequests;
    showDcApiStatus(`Waiting for the browser's wallet picker (offered: ${requests.map((r) => protocolName(r.protocol)).join(' and ')})…`, 'waiting');
    let credential;
    try {
      credential = await navigator.credentials.get({ mediation: 'required', digital: { requests } });
    } catch (error) {
      if (error?.name === 'NotAllowedError' || error?.name === 'AbortError') {
        showDcApiStatus('Cancelled: the wallet selection was closed, or no wallet on this device holds a matching credential.', 'expired');
        return;
      }
      throw new Error(`The browser's Digital Credentials API failed: ${error?.message || error?.name || String(error)}`);
    }
    if (!credential?.data) {
      showDcApiStatus('The browser returned no credential.', 'error');
      return;
    }
    showDcApiStatus(`The wallet answered in ${protocolName(credential.protocol)}; checking…`, 'waiting');
    const answer = await api(`/demo/authorizations/${created.authorizationId}/dc-api`, { protocol: credential.protocol, data: credential.data });
    current?.stop();
    showDcApiStatus(`The wallet answered in ${protocolName(answer.protocol ?? credential.protocol)}: ${answer.status}.`, answer.status);
    if (TERMINAL.has(answer.status)) await loadResult(created.authorizationId);
  } catch (error) {
    showDcApiStatus(error.message, 'error');
  } finally {
    button.disabled = false;
  }
});

// Back from a same-device flow (/demo/callback): show that authorization's result.
const params = new URLSearchParams(location.search);
if (Object.hasOwn(NOTICES, params.get('notice') ?? '')) showError(NOTICES[params.get('notice')]);
if (params.get('authorization')) loadResult(params.get('authorization'));
