import { type JWK, SignJWT, calculateJwkThumbprint, importJWK } from 'jose';
import { generateP256KeyPair, type P256KeyPair } from './holder-key.js';

export interface IdTokenTamper {
  nonce?: string;
  audience?: string;
  /** Signed with a key other than `sub_jwk`. */
  wrongKey?: boolean;
  /** Seconds added to iat and exp (negative = expired). */
  timeOffsetSeconds?: number;
}

/**
 * Self-issued ID token (SIOPv2 §11): iss = sub = `urn:ietf:params:oauth:jwk-thumbprint:sha-256:<thumbprint>`
 * of `sub_jwk`, signed with that key, bound to the request's `aud` and `nonce`.
 */
export async function createSiopIdToken(input: { subjectKey: P256KeyPair; audience: string; nonce: string; tamper?: IdTokenTamper }): Promise<string> {
  const { subjectKey, tamper = {} } = input;
  const sub = `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${await calculateJwkThumbprint(subjectKey.publicJwk as JWK, 'sha256')}`;
  const signer = tamper.wrongKey ? await generateP256KeyPair() : subjectKey;
  const iat = Math.floor(Date.now() / 1000) + (tamper.timeOffsetSeconds ?? 0);
  return new SignJWT({ sub_jwk: subjectKey.publicJwk, nonce: tamper.nonce ?? input.nonce })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer(sub)
    .setSubject(sub)
    .setAudience(tamper.audience ?? input.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(await importJWK(signer.privateJwk as JWK, 'ES256'));
}
