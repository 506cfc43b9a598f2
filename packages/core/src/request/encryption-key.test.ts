import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateEncryptionKey } from './encryption-key.js';

describe('generateEncryptionKey', () => {
  it('gives every request its own valid P-256 key, with d at the full 32 bytes even when the scalar starts with zero bytes', async () => {
    // About one scalar in 256 starts with a zero byte: 3,000 keys all but surely include several.
    const seen = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      const key = await generateEncryptionKey();
      const d = Buffer.from(key.privateJwk.d!, 'base64url');
      expect(d.length).toBe(32);
      expect(seen.has(key.privateJwk.d!)).toBe(false);
      seen.add(key.privateJwk.d!);
      if (i % 100 === 0 || d[0] === 0) {
        // The private JWK imports, and its public half is the published key.
        const publicOfPrivate = createPublicKey(createPrivateKey({ key: key.privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' })).export({ format: 'jwk' });
        expect({ x: publicOfPrivate.x, y: publicOfPrivate.y }).toEqual({ x: key.publicJwk.x, y: key.publicJwk.y });
      }
    }
    expect(seen.size).toBe(3_000);
  });

  it('publishes only the public half, with the kid, alg and use of an ECDH-ES key', async () => {
    const key = await generateEncryptionKey();
    expect(key.publicJwk).toEqual({ kty: 'EC', crv: 'P-256', x: key.privateJwk.x, y: key.privateJwk.y, kid: key.kid, alg: 'ECDH-ES', use: 'enc' });
    expect(key.publicJwk).not.toHaveProperty('d');
    expect(key.alg).toBe('ECDH-ES');
  });
});
