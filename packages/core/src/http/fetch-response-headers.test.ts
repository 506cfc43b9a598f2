import { describe, expect, it } from 'vitest';
import { toFetchResponse } from './fetch-bridge.js';

describe('toFetchResponse headers', () => {
  it('carries every header of the core response, names case-insensitively', async () => {
    const response = toFetchResponse({ status: 201, headers: [['Content-Type', 'application/json'], ['cache-control', 'no-store'], ['Location', '/x']], body: '{"a":1}' });
    expect(response.status).toBe(201);
    expect([...response.headers]).toEqual([['cache-control', 'no-store'], ['content-type', 'application/json'], ['location', '/x']]);
    expect(await response.text()).toBe('{"a":1}');
  });

  it('keeps a repeated header as repeated values (the pairs go to the Response as they are)', () => {
    const response = toFetchResponse({ status: 200, headers: [['vary', 'Origin'], ['Vary', 'Accept']], body: '' });
    expect(response.headers.get('vary')).toBe('Origin, Accept');
  });

  it('passes names an object prototype holds as ordinary headers, without touching any prototype', () => {
    const response = toFetchResponse({ status: 200, headers: [['constructor', 'a'], ['__proto__', 'b'], ['toString', 'c']], body: '' });
    expect(response.headers.get('constructor')).toBe('a');
    expect(response.headers.get('__proto__')).toBe('b');
    expect(response.headers.get('tostring')).toBe('c');
    expect(({} as Record<string, unknown>).b).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
