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
});
