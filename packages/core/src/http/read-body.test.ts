import { describe, expect, it } from 'vitest';
import type { CoreRequestBody } from '../wire/core-request.js';
import { readRequest, refuseParsedOverLimit, type BridgedCoreRequest } from './read-body.js';

const bridged = (body: BridgedCoreRequest['body'], headers: Record<string, string> = {}): BridgedCoreRequest => ({
  method: 'POST',
  path: '/',
  query: new URLSearchParams(),
  headers: new Headers(headers),
  ...(body ? { body } : {}),
});
const stream = (...chunks: string[]): BridgedCoreRequest['body'] => ({
  kind: 'stream',
  async pump(take) {
    for (const chunk of chunks) take(Buffer.from(chunk));
  },
});
/** As serve() takes it: a refusal before any read (thrown at once) reads as a rejection too. */
const read = async (request: BridgedCoreRequest, limit: number) => readRequest(request, limit);
const text = (body: CoreRequestBody | undefined) => (body?.kind === 'bytes' ? Buffer.from(body.bytes).toString() : body);

describe('the body limit, applied once to what a bridge delivers', () => {
  it('refuses a declared Content-Length over the limit before the body is touched, also one a host already read', async () => {
    let pumped = false;
    const untouched: BridgedCoreRequest['body'] = { kind: 'stream', pump: async () => void (pumped = true) };
    await expect(read(bridged(untouched, { 'content-length': '2048' }), 1024)).rejects.toMatchObject({ code: 'request.body_too_large' });
    expect(pumped).toBe(false);
    await expect(read(bridged({ kind: 'parsed', value: {} }, { 'content-length': '2048' }), 1024)).rejects.toMatchObject({ code: 'request.body_too_large' });
    expect((await read(bridged(undefined, { 'content-length': '1024' }), 1024)).body).toBeUndefined();
  });

  it('counts a stream while it is read and stops at the first chunk past the limit', async () => {
    expect(text((await read(bridged(stream('1234', '5678')), 8)).body)).toBe('12345678');
    const taken: string[] = [];
    const endless: BridgedCoreRequest['body'] = {
      kind: 'stream',
      async pump(take) {
        for (let i = 0; i < 100; i++) {
          take(Buffer.from('12345'));
          taken.push('12345');
        }
      },
    };
    await expect(read(bridged(endless), 8)).rejects.toMatchObject({ code: 'request.body_too_large' });
    expect(taken).toHaveLength(1);
    expect((await read(bridged(stream()), 8)).body).toBeUndefined();
  });

  it('measures bytes a host read, and a value a host parser produced once: forms by their fields, JSON by its text', async () => {
    await expect(read(bridged({ kind: 'bytes', bytes: Buffer.from('x'.repeat(9)) }), 8)).rejects.toMatchObject({ code: 'request.body_too_large' });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await read(bridged({ kind: 'parsed', value: { a: '1' } }, form), 8)).body).toEqual({ kind: 'parsed', value: { a: '1' } });
    await expect(read(bridged({ kind: 'parsed', value: { a: 'x'.repeat(32) } }, form), 16)).rejects.toMatchObject({ code: 'request.body_too_large' });
  });

  it('sizes parsed values the way they arrived', () => {
    expect(() => refuseParsedOverLimit({ vp_token: 'x'.repeat(2000) }, 'application/x-www-form-urlencoded', 1024)).toThrow();
    expect(() => refuseParsedOverLimit({ vp_token: 'x'.repeat(500) }, 'application/x-www-form-urlencoded; charset=utf-8', 1024)).not.toThrow();
    expect(() => refuseParsedOverLimit({ a: ['y'.repeat(600), 'y'.repeat(600)] }, 'application/x-www-form-urlencoded', 1024)).toThrow();
    expect(() => refuseParsedOverLimit({ q: 'z'.repeat(2000) }, 'application/json', 1024)).toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => refuseParsedOverLimit(cyclic, 'application/json', 1024)).toThrow();
  });
});
