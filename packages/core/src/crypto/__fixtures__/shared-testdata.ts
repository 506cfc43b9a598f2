import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Public test data (RFC 9180 and Annex C vectors) kept outside the repository, in a
 * `shared/testdata` folder beside the clone or one of its parent folders. Fails loudly when there
 * is none: these tests never skip.
 */
function testdataFolder(): string {
  let at = fileURLToPath(new URL('../../../../..', import.meta.url));
  for (;;) {
    const candidate = join(dirname(at), 'shared', 'testdata');
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) throw new Error('shared/testdata not found beside the repository or any parent folder; these tests need the public test data');
    at = dirname(at);
  }
}

export const sharedTestdataJson = <T>(name: string): T => JSON.parse(readFileSync(join(testdataFolder(), name), 'utf8')) as T;

/** An uncompressed P-256 point and scalar (hex) as a JWK. */
export function p256Jwk(publicHex: string, privateHex?: string): JsonWebKey {
  const point = Buffer.from(publicHex, 'hex');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
    ...(privateHex ? { d: Buffer.from(privateHex, 'hex').toString('base64url') } : {}),
  };
}
