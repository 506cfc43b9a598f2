import { describe, expect, it } from 'vitest';
import { randomId } from '../crypto/secrets.js';
import { redirectWithCode } from './redirect-with-code.js';

const viaUrlApi = (redirectUri: string, code: string): string => {
  const url = new URL(redirectUri);
  url.searchParams.append('response_code', code);
  return url.toString();
};

describe('redirectWithCode', () => {
  const uris = [
    'https://rp.example/cb',
    'https://rp.example',
    'https://RP.example:443/a/../cb',
    'https://rp.example/c b/ü',
    'http://127.0.0.1:8080/done',
    'https://rp.example/cb?',
    'https://rp.example/cb#',
    'https://rp.example/cb?x=a b&y=%20&z=+',
    'https://rp.example/cb?response_code=old',
    'https://rp.example/cb#frag?x',
    'https://rp.example/cb?x=1#frag',
    'https://user:p%3Fw@rp.example/cb',
    'app.example:/callback',
  ];

  it('writes what the URL API writes, with or without a query or fragment, first call and later', () => {
    for (let round = 0; round < 2; round++) {
      for (const uri of uris) {
        const code = randomId(32);
        expect(redirectWithCode(uri, code), uri).toBe(viaUrlApi(uri, code));
      }
    }
  });

  it('throws on what the URL API cannot parse, every time', () => {
    expect(() => redirectWithCode('not a url', 'abc')).toThrow(TypeError);
    expect(() => redirectWithCode('not a url', 'abc')).toThrow(TypeError);
  });
});
