import { createECDH, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateP256KeyPair } from './holder-key.js';

describe('generateP256KeyPair', () => {
  it('gives fresh P-256 JWKs whose private key signs what the public key verifies, d always 32 bytes', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 64; i++) {
      const { publicJwk, privateJwk } = await generateP256KeyPair();
      expect(Object.keys(publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
      expect(Buffer.from(privateJwk.d!, 'base64url')).toHaveLength(32);
      const privateKey = createPrivateKey({ key: privateJwk as never, format: 'jwk' });
      // The public half computed from d alone is the one given (node would take any x, y beside d).
      const point = createECDH('prime256v1');
      point.setPrivateKey(Buffer.from(privateJwk.d!, 'base64url'));
      expect(Buffer.from(point.getPublicKey())).toEqual(Buffer.concat([Buffer.from([4]), Buffer.from(publicJwk.x!, 'base64url'), Buffer.from(publicJwk.y!, 'base64url')]));
      const signature = sign('sha256', Buffer.from('data'), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      expect(verify('sha256', Buffer.from('data'), { key: createPublicKey({ key: publicJwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
      seen.add(privateJwk.d!);
    }
    expect(seen.size).toBe(64);
  });
});
