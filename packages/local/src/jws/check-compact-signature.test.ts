import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { checkCompactSignature } from './check-compact-signature.js';

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jws = (alg: string) => {
  const input = `${b64u({ alg })}.${b64u({ a: 1 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
};

describe('checkCompactSignature', () => {
  it('returns the payload of a good ES256 signature', () => {
    expect(JSON.parse(Buffer.from(checkCompactSignature(jws('ES256'), publicKey, 'ES256')).toString())).toEqual({ a: 1 });
  });

  it('knows only its own algorithm names: one every object has is refused as not fitting the key', () => {
    for (const alg of ['constructor', '__proto__', 'toString']) expect(() => checkCompactSignature(jws(alg), publicKey, alg)).toThrow('key does not fit the algorithm');
  });
});
