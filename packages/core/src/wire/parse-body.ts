import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreRequest, RequestHeaders } from './core-request.js';
import { MAX_JSON_DEPTH, tooDeepPointer, withinJsonDepth } from '../formats/shared/json-depth.js';

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
  checkJsonDepth(value);
  return value;
}

/**
 * Refuse a JSON value from a client that nests deeper than MAX_JSON_DEPTH: 400
 * `request.invalid_body` with the pointer of where the limit is crossed. Every JSON that enters
 * from outside is checked once, at its door (HTTP bodies here; in-process calls in authorizer.ts).
 */
export function checkJsonDepth(value: unknown): void {
  if (withinJsonDepth(value)) return;
  throw new AuthorizerError('request.invalid_body', {
    message: 'The JSON body is nested too deeply.',
    errors: [{ pointer: tooDeepPointer(value) ?? '', detail: `nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays` }],
  });
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
  for (const [key, value] of formPairs(text)) {
    // OAuth parameters must not repeat (RFC 6749 section 3.1).
    if (key in out) throw new AuthorizerError('request.invalid_body', { message: `The form parameter "${safeName(key)}" appears more than once.` });
    out[key] = value;
  }
  return out;
}

/**
 * The pairs `new URLSearchParams(text)` gives (the URL Standard's application/x-www-form-urlencoded
 * parser, after the constructor drops one leading `?`), in one linear pass per part. Node's
 * URLSearchParams decodes character by character in JS, and a body full of `+` held the event loop
 * for a third of a second per MiB; a part without `%` or `+` (a wallet's `response=<JWE>`:
 * base64url and dots) is simply sliced. A part with either goes through its bytes once: about
 * 35 ms for the worst megabyte (invalid bytes, each now U+FFFD, with an escape in them); decoding
 * only the runs of escapes instead costs more than that for alternating text and escapes.
 */
function formPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  // As the URLSearchParams constructor (and so the parser this replaces) does: one leading "?" goes.
  for (const sequence of (text.startsWith('?') ? text.slice(1) : text).split('&')) {
    if (sequence === '') continue;
    const eq = sequence.indexOf('=');
    pairs.push(eq === -1 ? [formDecode(sequence), ''] : [formDecode(sequence.slice(0, eq)), formDecode(sequence.slice(eq + 1))]);
  }
  return pairs;
}

// "UTF-8 decode without BOM": a decoded U+FEFF stays, malformed bytes become U+FFFD.
const UTF8_KEEPING_BOM = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * `+` as a space, then percent-decoding of the part's UTF-8 bytes (a `%` not followed by two hex
 * digits stays as it is), then UTF-8 decoding. `text` came from a replacing UTF-8 decode, so it
 * holds no lone surrogate whose encoding could differ. Decodes in place: never longer than its input.
 */
function formDecode(part: string): string {
  if (!part.includes('%') && !part.includes('+')) return part;
  const bytes = Buffer.from(part, 'utf8');
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x2b) bytes[length++] = 0x20;
    else if (byte === 0x25 && i + 2 < bytes.length && hexValue(bytes[i + 1]!) >= 0 && hexValue(bytes[i + 2]!) >= 0) {
      bytes[length++] = hexValue(bytes[i + 1]!) * 16 + hexValue(bytes[i + 2]!);
      i += 2;
    } else bytes[length++] = byte;
  }
  return UTF8_KEEPING_BOM.decode(bytes.subarray(0, length));
}

const hexValue = (byte: number): number => (byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1);

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
