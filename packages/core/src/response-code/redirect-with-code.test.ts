import { describe, expect, it } from 'vitest';
import { redirectWithCode } from './redirect-with-code.js';

describe('redirectWithCode', () => {
  it('appends response_code after the parameters the URI has, before its fragment', () => {
    expect(redirectWithCode('https://rp.example/cb', 'C0de_-')).toBe('https://rp.example/cb?response_code=C0de_-');
    expect(redirectWithCode('https://rp.example', 'c')).toBe('https://rp.example/?response_code=c');
    expect(redirectWithCode('https://rp.example/cb?x=1#frag', 'c')).toBe('https://rp.example/cb?x=1&response_code=c#frag');
    expect(redirectWithCode('https://rp.example/cb#frag?x', 'c')).toBe('https://rp.example/cb?response_code=c#frag?x');
    expect(redirectWithCode('app.example:/callback', 'c')).toBe('app.example:/callback?response_code=c');
  });

  it('keeps a response_code the URI already carries (the new one comes last)', () => {
    expect(redirectWithCode('https://rp.example/cb?response_code=old', 'new')).toBe('https://rp.example/cb?response_code=old&response_code=new');
  });

  it('throws on what the URL API cannot parse', () => {
    expect(() => redirectWithCode('not a url', 'abc')).toThrow(TypeError);
  });
});
