import { CompactEncrypt, type JWK, importJWK } from 'jose';

export type ResponseEnc = 'A128GCM' | 'A256GCM';

/**
 * Picks the verifier key to encrypt to from `client_metadata.jwks`: an EC key for ECDH-ES with a
 * `kid` (OpenID4VP 1.0 section 5.1 requires both `kid` and `alg`).
 */
export function selectEncryptionJwk(clientMetadata: Record<string, unknown> | undefined): JsonWebKey & { kid: string; alg: string } {
  const keys = ((clientMetadata?.jwks as { keys?: unknown[] } | undefined)?.keys ?? []) as (JsonWebKey & { kid?: string })[];
  const jwk = keys.find((key) => key.kty === 'EC' && key.alg === 'ECDH-ES' && (key.use === undefined || key.use === 'enc') && typeof key.kid === 'string');
  if (!jwk) throw new Error('test wallet: client_metadata.jwks has no EC key with kid and alg ECDH-ES');
  return jwk as JsonWebKey & { kid: string; alg: string };
}

/**
 * JWE compact (ECDH-ES, `kid` of the verifier key) over the JSON response parameters, as
 * direct_post.jwt and dc_api.jwt carry them. `apu`/`apv` are added only when given.
 */
export async function encryptResponse(
  payload: Record<string, unknown>,
  jwk: JsonWebKey & { kid?: string },
  options: { enc?: ResponseEnc; apu?: string; apv?: string } = {},
): Promise<string> {
  const { kty, crv, x, y } = jwk;
  const key = await importJWK({ kty, crv, x, y } as JWK, 'ECDH-ES');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({
      alg: 'ECDH-ES',
      enc: options.enc ?? 'A256GCM',
      ...(jwk.kid ? { kid: jwk.kid } : {}),
      ...(options.apu ? { apu: options.apu } : {}),
      ...(options.apv ? { apv: options.apv } : {}),
    })
    .encrypt(key);
}
