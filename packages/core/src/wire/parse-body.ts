import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreRequest, RequestHeaders } from './core-request.js';
import { withinJsonDepth } from '../formats/shared/json-depth.js';

export type BodyKind = 'json' | 'form';

export interface ParsedBody {
  kind: BodyKind;
  /** JSON: the parsed value. Form: one string per field. */
  value: unknown;
}

export function mediaType(headers: RequestHeaders): string {
  const value = headers.get('content-type') ?? '';
  // The common exact value skips the split, trim and lower-casing (each a new string).
  if (value === 'application/json' || value === 'application/x-www-form-urlencoded') return value;
  return value.split(';', 1)[0]!.trim().toLowerCase();
}

// One decoder for every request: a non-streaming decode keeps no state between calls.
const UTF8 = new TextDecoder('utf-8', { fatal: false });

const KIND_BY_MEDIA_TYPE: Record<string, BodyKind> = {
  'application/json': 'json',
  'application/x-www-form-urlencoded': 'form',
};

/**
 * Interpret the body according to its Content-Type, accepting only `accepted` kinds (415
 * otherwise). A body a host parser already consumed is re-read from its parsed value, never
 * re-serialised under another content type.
 */
export function parseBody(request: CoreRequest, accepted: readonly BodyKind[]): ParsedBody {
  const kind = KIND_BY_MEDIA_TYPE[mediaType(request.headers)];
  if (!kind || !accepted.includes(kind)) {
    throw new AuthorizerError('request.unsupported_media_type', {
      message: `Expected Content-Type ${accepted.map((k) => (k === 'json' ? 'application/json' : 'application/x-www-form-urlencoded')).join(' or ')}.`,
    });
  }
  const body = request.body;
  if (!body) throw new AuthorizerError('request.invalid_body', { message: 'The request body is empty.' });
  if (body.kind === 'parsed') return { kind, value: kind === 'form' ? formFromParsed(body.value) : checkedJson(body.value) };
  const text = UTF8.decode(body.bytes);
  if (kind === 'json') {
    let value: unknown;
    if (text.trim() === '') throw new AuthorizerError('request.invalid_body', { message: 'The request body is empty.' });
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw new AuthorizerError('request.invalid_json');
    }
    return { kind, value: checkedJson(value) };
  }
  return { kind, value: formFromText(text) };
}

function checkedJson(value: unknown): unknown {
  if (!withinJsonDepth(value)) throw new AuthorizerError('request.invalid_body', { message: 'The JSON body is nested too deeply.' });
  return value;
}

/**
 * OpenID4VP form bodies carry a handful of parameters (loose wallet-metadata fields included);
 * URLSearchParams over 100k tiny pairs in a 1 MiB body costs hundreds of ms, so the pairs are
 * counted (one cheap scan) before anything is built.
 */
export const MAX_FORM_FIELDS = 100;

const tooManyFields = () => new AuthorizerError('request.invalid_body', { message: `The form has more than ${MAX_FORM_FIELDS} parameters.` });

function formFromText(text: string): Record<string, string> {
  let separators = 0;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) if (++separators >= MAX_FORM_FIELDS) throw tooManyFields();
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of formPairs(text) ?? new URLSearchParams(text)) {
    // OAuth parameters must not repeat (RFC 6749 section 3.1).
    if (key in out) throw new AuthorizerError('request.invalid_body', { message: `The form parameter "${safeName(key)}" appears more than once.` });
    out[key] = value;
  }
  return out;
}

/**
 * The pairs URLSearchParams gives, sliced out and decoded natively: URLSearchParams percent-decodes
 * character by character in JS, which shows on a wallet's `response=<JWE>` or `wallet_metadata`.
 * `decodeURIComponent` decodes well-formed escapes to the same text and throws on the rest (a lone
 * `%`, bytes that are not UTF-8), where URLSearchParams keeps or replaces them: then null, and the
 * caller takes URLSearchParams. `text` comes from a replacing UTF-8 decode, so it holds no lone
 * surrogate that URLSearchParams would replace.
 */
function formPairs(text: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  try {
    for (const sequence of text.split('&')) {
      if (sequence === '') continue;
      const eq = sequence.indexOf('=');
      pairs.push(eq === -1 ? [formDecode(sequence), ''] : [formDecode(sequence.slice(0, eq)), formDecode(sequence.slice(eq + 1))]);
    }
  } catch {
    return null;
  }
  return pairs;
}

/** `+` is a space, then the escapes (an escaped `%2B` stays a plus). */
const formDecode = (part: string): string => {
  const spaced = part.includes('+') ? part.replaceAll('+', ' ') : part;
  return spaced.includes('%') ? decodeURIComponent(spaced) : spaced;
};

function formFromParsed(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthorizerError('request.invalid_body', { message: 'The form body could not be read.' });
  }
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  let fields = 0;
  for (const key in value) if (Object.hasOwn(value, key) && ++fields > MAX_FORM_FIELDS) throw tooManyFields();
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== 'string') {
      throw new AuthorizerError('request.invalid_body', { message: `The form parameter "${safeName(key)}" must appear once, as text.` });
    }
    out[key] = field;
  }
  return out;
}

const safeName = (name: string) => name.replace(/[^\w.-]/g, '').slice(0, 64);

/** The JSON body as an object, or a 400. */
export function expectObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthorizerError('request.invalid_body', { message: 'The request body must be a JSON object.', errors: [{ pointer: '', detail: 'must be an object' }] });
  }
  return value as Record<string, unknown>;
}
