import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, parseBody } from './parse-body.js';
import type { CoreRequest } from './core-request.js';

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

  it('reads a form exactly as URLSearchParams does, with or without escapes (thousands of random bodies)', () => {
    // Deterministic: a small LCG, so a failure names a body that can be replayed.
    let seed = 12345;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const plain = ['a', 'Z', '0', '.', '-', '_', '~', '&', '&', '=', '=', '+', '+', ' ', 'é', '€', '😀', '\\ud800', ';'];
    const wellFormed = ['%20', '%2B', '%26', '%3D', '%25', '%2b', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%EF%BB%BF'];
    const malformed = ['%', '%2', '%zz', '%FF', '%C3', '%ED%A0%80', '%C0%AF'];
    for (let i = 0; i < 6_000; i++) {
      // A third each: no escapes, well-formed escapes only, and malformed ones among them.
      const alphabet = [...plain, ...(i % 3 > 0 ? wellFormed : []), ...(i % 3 > 1 ? malformed : [])];
      const bytes = new Uint8Array([...Array.from({ length: next(24) }, () => alphabet[next(alphabet.length)]!).join('')].flatMap((c) => [...new TextEncoder().encode(c)]));
      if (next(10) === 0) bytes[next(bytes.length + 1)] = 0xff; // invalid UTF-8 in the body itself
      const text = new TextDecoder().decode(bytes);
      const expected: Record<string, string> = {};
      let repeated = false;
      for (const [key, value] of new URLSearchParams(text)) {
        if (Object.hasOwn(expected, key)) repeated = true;
        expected[key] = value;
      }
      const request: CoreRequest = { ...formRequest(''), body: { kind: 'bytes', bytes } };
      if (repeated) expect(() => parseBody(request, ['form']), text).toThrowError(expect.objectContaining({ code: 'request.invalid_body' }));
      else expect({ ...(parseBody(request, ['form']).value as object) }, text).toStrictEqual(expected);
    }
  });
});
