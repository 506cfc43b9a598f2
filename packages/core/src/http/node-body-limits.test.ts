import { describe, expect, it } from 'vitest';
import { clientWentAway, refuseDeclaredOverLimit, refuseParsedOverLimit } from './node-body-limits.js';

const req = (headers: Record<string, string> = {}, state: { destroyed?: boolean; complete?: boolean } = {}) => ({ headers, destroyed: false, complete: true, ...state });

describe('node body limits', () => {
  it('refuses a declared Content-Length over the limit before anything is read', () => {
    expect(() => refuseDeclaredOverLimit(req({ 'content-length': '2048' }), 1024)).toThrow(expect.objectContaining({ code: 'request.body_too_large' }));
    expect(() => refuseDeclaredOverLimit(req({ 'content-length': '1024' }), 1024)).not.toThrow();
    expect(() => refuseDeclaredOverLimit(req(), 1024)).not.toThrow();
  });

  it('measures a body a host parser consumed: forms by their fields, JSON by its text', () => {
    expect(() => refuseParsedOverLimit({ vp_token: 'x'.repeat(2000) }, 'application/x-www-form-urlencoded', 1024)).toThrow();
    expect(() => refuseParsedOverLimit({ vp_token: 'x'.repeat(500) }, 'application/x-www-form-urlencoded; charset=utf-8', 1024)).not.toThrow();
    expect(() => refuseParsedOverLimit({ a: ['y'.repeat(600), 'y'.repeat(600)] }, 'application/x-www-form-urlencoded', 1024)).toThrow();
    expect(() => refuseParsedOverLimit({ q: 'z'.repeat(2000) }, 'application/json', 1024)).toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => refuseParsedOverLimit(cyclic, 'application/json', 1024)).toThrow();
  });

  it('tells a client that hung up from a server fault', () => {
    expect(clientWentAway(req({}, { destroyed: true, complete: false }), new Error('x'))).toBe(true);
    expect(clientWentAway(req(), Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    expect(clientWentAway(req(), new Error('aborted'))).toBe(true);
    expect(clientWentAway(req(), new TypeError('a bug'))).toBe(false);
  });
});
