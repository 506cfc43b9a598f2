// The test wallet page: opens a request through the wallet's backend, shows who asks and for
// what, and sends the person's answer.
import { $, motion, api, el, formatName, label, typeName } from './common.js';

let handle = null;

async function open(authorizeUrl) {
  $('open-error').hidden = true;
  $('consent-card').hidden = true;
  $('done-card').hidden = true;
  $('open').disabled = true;
  try {
    const request = await api('/demo/wallet/open', { authorizeUrl });
    handle = request.handle;
    renderConsent(request);
  } catch (error) {
    $('open-error').textContent = error.message;
    $('open-error').hidden = false;
  } finally {
    $('open').disabled = false;
  }
}

function renderConsent(request) {
  const { verifier } = request;
  $('verifier-name').textContent = verifier.name;
  $('verifier-verified').replaceChildren(verifier.name, ' ', verifier.verified ? el('span', { class: 'verified' }, '· signature verified') : el('span', { class: 'muted' }, '· unsigned request'));
  $('certificate-subject').textContent = verifier.certificateSubject ?? '—';
  $('certificate-issuer').textContent = verifier.certificateIssuer ?? '—';
  $('client-id').textContent = verifier.clientId ?? '—';
  $('purpose').textContent = request.purpose ?? 'The verifier gave no purpose.';
  $('requested').replaceChildren(...request.credentials.map((credential) => el('li', {},
    el('strong', {}, typeName(credential.type ?? credential.id)),
    el('span', { class: 'muted small' }, ` · ${formatName(credential.format)}`),
    el('div', { class: 'small' }, credential.claims.length ? credential.claims.map((path) => path.filter((part) => typeof part === 'string').slice(credential.format === 'mso_mdoc' ? 1 : 0).map(label).join(' › ')).join(', ') : 'every claim'),
  )));
  $('alternatives').hidden = !request.alternatives;
  $('unsatisfiable').hidden = request.satisfiable;
  $('choice-set').hidden = !request.satisfiable;
  $('share').hidden = !request.satisfiable;
  $('choices').replaceChildren(...Object.entries(request.choices).map(([value, text], index) => el('label', { class: 'choice' },
    el('input', { type: 'radio', name: 'choice', value, checked: index === 0 }),
    el('span', {}, text),
  )));
  $('consent-card').hidden = false;
  $('consent-card').scrollIntoView({ behavior: motion(), block: 'start' });
}

async function answer(choice) {
  $('share').disabled = $('decline').disabled = true;
  try {
    const result = await api('/demo/wallet/answer', { handle, choice });
    $('consent-card').hidden = true;
    $('done-title').textContent = result.declined ? 'You declined' : result.accepted ? 'Shared' : 'The verifier refused the presentation';
    $('done-text').textContent = result.declined
      ? 'The wallet told the verifier that you declined.'
      : result.accepted
        ? 'The verifier accepted the presentation.'
        : `Reason given to the wallet: ${result.errorDescription ?? result.error ?? `HTTP ${result.httpStatus}`}`;
    $('return-link').hidden = !result.redirectUri;
    if (result.redirectUri) $('return-link').href = result.redirectUri;
  } catch (error) {
    $('done-title').textContent = 'Nothing was sent';
    $('done-text').textContent = error.message;
    $('return-link').hidden = true;
  } finally {
    $('done-card').hidden = false;
    $('share').disabled = $('decline').disabled = false;
  }
}

// A picture of the QR code (a phone's camera through capture="environment", or a screenshot).
$('qr-picture').addEventListener('change', async () => {
  const file = $('qr-picture').files?.[0];
  $('qr-picture').value = '';
  if (!file) return;
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const code = window.jsQR?.(data, width, height);
    if (!code?.data) throw new Error('no QR code found in it. Try a sharper, closer picture, or paste the URL.');
    $('authorize-url').value = code.data;
    open(code.data);
  } catch (error) {
    $('open-error').textContent = `The wallet could not read this picture: ${error.message}`;
    $('open-error').hidden = false;
  }
});

$('open-form').addEventListener('submit', (event) => {
  event.preventDefault();
  open($('authorize-url').value);
});
$('share').addEventListener('click', () => answer(document.querySelector('input[name="choice"]:checked')?.value ?? 'valid'));
$('decline').addEventListener('click', () => answer('decline'));

// Opened through the verifier's link: /wallet?request=<authorizeUrl>.
const fromLink = new URLSearchParams(location.search).get('request');
if (fromLink) {
  $('authorize-url').value = fromLink;
  open(fromLink);
}
