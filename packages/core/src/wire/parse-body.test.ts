import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, parseBody } from './parse-body.js';
import type { CoreRequest } from './core-request.js';
import { createRequire } from 'node:module';

// The URL Standard's reference implementation (its parser follows the spec's steps as written).
const { URLSearchParams: StandardSearchParams } = createRequire(import.meta.url)('whatwg-url') as { URLSearchParams: typeof URLSearchParams };

/** Name → value, or 'repeated' when a name appears twice (the parser refuses those). */
const pairsOf = (params: URLSearchParams): Record<string, string> | 'repeated' => {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(out, key)) return 'repeated';
    out[key] = value;
  }
  return out;
};

const formRequest = (text: string): CoreRequest => ({
  method: 'POST',
  path: '/',
  query: new URLSearchParams(),
  headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded' }),
  body: { kind: 'bytes', bytes: new TextEncoder().encode(text) },
});
const parsedFormRequest = (value: unknown): CoreRequest => ({ ...formRequest(''), body: { kind: 'parsed', value } });
const fields = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');

describe('form bodies', () => {
  it('refuses a form with 100k parameters before building it (form-field amplification)', () => {
    expect(() => parseBody(formRequest(fields(100_000)), ['form'])).toThrowError(expect.objectContaining({ code: 'request.invalid_body', status: 400 }));
  });

  it('accepts exactly the maximum number of parameters and refuses one more', () => {
    expect(Object.keys(parseBody(formRequest(fields(MAX_FORM_FIELDS)), ['form']).value as object)).toHaveLength(MAX_FORM_FIELDS);
    expect(() => parseBody(formRequest(fields(MAX_FORM_FIELDS + 1)), ['form'])).toThrowError(expect.objectContaining({ code: 'request.invalid_body' }));
  });

  it('applies the same cap to a body a host parser already read', () => {
    const parsed = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, '1']));
    expect(() => parseBody(parsedFormRequest(parsed), ['form'])).toThrowError(expect.objectContaining({ code: 'request.invalid_body' }));
    expect(parseBody(parsedFormRequest({ state: 's', vp_token: '{}' }), ['form']).value).toEqual({ state: 's', vp_token: '{}' });
  });

  it('still refuses a repeated parameter', () => {
    expect(() => parseBody(formRequest('state=a&state=b'), ['form'])).toThrowError(expect.objectContaining({ code: 'request.invalid_body' }));
  });

  it('reads a form as the URL Standard\'s URLSearchParams does, and as node\'s does for ASCII text (thousands of random bodies)', () => {
    // Deterministic: a small LCG, so a failure names a body that can be replayed.
    let seed = 12345;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const plain = ['a', 'Z', '0', '.', '-', '_', '~', '&', '&', '=', '=', '+', '+', ' ', '?', 'é', '€', '😀', '\ufeff', '\\ud800', ';'];
    const wellFormed = ['%20', '%2B', '%26', '%3D', '%25', '%2b', '%3F', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%EF%BB%BF'];
    const malformed = ['%', '%2', '%zz', '%FF', '%C3', '%ED%A0%80', '%C0%AF'];
    let compared = 0;
    for (let i = 0; i < 6_000; i++) {
      // A third each: no escapes, well-formed escapes only, and malformed ones among them.
      const alphabet = [...plain, ...(i % 3 > 0 ? wellFormed : []), ...(i % 3 > 1 ? malformed : [])];
      // A leading "?" (the URLSearchParams constructor drops one) in a sixth of them.
      const start = next(6) === 0 ? '?' : '';
      const bytes = new TextEncoder().encode(start + Array.from({ length: next(24) }, () => alphabet[next(alphabet.length)]!).join(''));
      if (next(10) === 0) bytes[next(bytes.length + 1)] = 0xff; // invalid UTF-8 in the body itself
      const text = new TextDecoder().decode(bytes);
      const request: CoreRequest = { ...formRequest(''), body: { kind: 'bytes', bytes } };
      const expected = pairsOf(new StandardSearchParams(text));
      if (expected === 'repeated') {
        expect(() => parseBody(request, ['form']), text).toThrowError(expect.objectContaining({ code: 'request.invalid_body' }));
        continue;
      }
      const parsed = { ...(parseBody(request, ['form']).value as object) };
      expect(parsed, text).toStrictEqual(expected);
      // node's own URLSearchParams (what this parser replaced) agrees wherever it follows the
      // standard: it does not for raw non-ASCII text beside an escape that is not UTF-8.
      if (/^[\x00-\x7f]*$/.test(text)) {
        expect(parsed, text).toStrictEqual(pairsOf(new URLSearchParams(text)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });
});
