// Shared by the verifier and wallet pages: DOM helpers and how claims are labelled and formatted.

/** Creates an element: `el('p', {class: 'x'}, 'text', child…)`. Text is always set as text. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

/** Smooth scrolling, unless the person asked for less motion. */
export const motion = () => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/** fetch + JSON; a non-2xx answer throws an Error carrying the server's readable message. */
export async function api(path, body) {
  const response = await fetch(path, body === undefined ? { headers: { accept: 'application/json' } } : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || `The server answered ${response.status}.`);
  return data;
}

const LABELS = {
  given_name: 'Given name',
  family_name: 'Family name',
  birthdate: 'Date of birth',
  birth_date: 'Date of birth',
  nationalities: 'Nationalities',
  nationality: 'Nationality',
  address: 'Address',
  street_address: 'Street',
  locality: 'City',
  postal_code: 'Postal code',
  country: 'Country',
  region: 'Region',
  document_number: 'Document number',
  driving_privileges: 'Driving privileges',
  vehicle_category_code: 'Vehicle category',
  issue_date: 'Issued on',
  expiry_date: 'Expires on',
  issuing_country: 'Issuing country',
  issuing_authority: 'Issuing authority',
  age_over_18: 'Over 18',
  portrait: 'Portrait',
  iss: 'Issuer',
  iat: 'Issued at',
  nbf: 'Valid from',
  exp: 'Valid until',
  vct: 'Credential type (vct)',
  cnf: 'Holder key (cnf)',
  status: 'Status list entry',
  sub: 'Subject',
};

/** Members that describe the credential rather than the person. */
export const TECHNICAL_CLAIMS = new Set(['iss', 'iat', 'nbf', 'exp', 'vct', 'vct#integrity', 'cnf', 'status', 'sub', '_sd_alg', '_sd', 'jti']);
const EPOCH_CLAIMS = new Set(['iat', 'nbf', 'exp']);

export function label(name) {
  if (typeof name === 'number') return `#${name + 1}`;
  if (name === null) return 'each';
  return LABELS[name] ?? String(name).replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00:00(?:\.000)?Z)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** A value as a node: dates as dates, objects and lists of objects as nested lists. */
export function valueNode(name, value) {
  if (EPOCH_CLAIMS.has(name) && typeof value === 'number') {
    const date = new Date(value * 1000);
    return el('time', { datetime: date.toISOString() }, `${dateTimeFormat.format(date)} UTC`);
  }
  if (name === 'cnf' && value && typeof value === 'object' && value.jwk) {
    return el('span', {}, `Public key ${[value.jwk.kty, value.jwk.crv].filter(Boolean).join(' ')} bound to the holder's device`);
  }
  if (typeof value === 'string') {
    const date = DATE_ONLY.exec(value);
    if (date) return el('time', { datetime: `${date[1]}-${date[2]}-${date[3]}` }, dateFormat.format(new Date(Date.UTC(+date[1], +date[2] - 1, +date[3]))));
    if (DATE_TIME.test(value)) return el('time', { datetime: value }, `${dateTimeFormat.format(new Date(value))} UTC`);
    return value;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return el('span', { class: 'muted' }, 'none');
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ');
    // A list of records (driving privileges): one nested list per entry, without index labels.
    return el('div', { class: 'entries' }, value.map((item) => (item !== null && typeof item === 'object' ? claimList(Object.entries(item), true) : valueNode(undefined, item))));
  }
  return claimList(Object.entries(value), true);
}

const ORDER = Object.keys(LABELS);
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);

/** `<dl>` of [name, value] pairs, well-known claims first in a natural order. */
export function claimList(entries, nested = false) {
  const list = el('dl', { class: nested ? 'claims nested' : 'claims' });
  const sorted = [...entries].sort(([a], [b]) => rank(a) - rank(b));
  for (const [name, value] of sorted) list.append(el('dt', {}, label(name)), el('dd', {}, valueNode(name, value)));
  return list;
}

const FORMAT_NAMES = { 'dc+sd-jwt': 'SD-JWT VC', 'vc+sd-jwt': 'SD-JWT VC', mso_mdoc: 'mdoc (ISO 18013-5)', jwt_vc_json: 'W3C VC (JWT)' };
const TYPE_NAMES = { 'urn:eudi:pid:1': 'Person identification data (PID)', 'org.iso.18013.5.1.mDL': 'Mobile driving licence (mDL)' };
export const formatName = (format) => FORMAT_NAMES[format] ?? format;
export const typeName = (type) => TYPE_NAMES[type] ?? type;
