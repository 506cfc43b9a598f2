import type { PolicyResult, VerifyIdTokenInput } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { didJwk } from '../../__fixtures__/did-keys.js';
import { nowSeconds } from '../../__fixtures__/sd-jwt-issuer.js';
import { generateTestKeys, type TestKeys } from '@vp-authorizer/testing';
import { CLIENT_ID, NONCE, signal } from '../../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error!.code);
const verifier = localVerifier({ trustAnchors: [] });

function input(jwt: string): VerifyIdTokenInput {
  return {
    authorizationId: 'a1',
    idToken: { compact: jwt, header: decodeProtectedHeader(jwt) as Record<string, unknown>, payload: decodeJwt(jwt) as Record<string, unknown>, path: [] },
    nonce: NONCE,
    audience: CLIENT_ID,
    didMethods: v.parse(didMethodsConfigSchema, {}),
  };
}
const verify = (jwt: string) => verifier.verifyIdToken(input(jwt), { signal: signal() });

let keys: TestKeys;
let sub: string;

beforeAll(async () => {
  keys = await generateTestKeys();
  sub = `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${await calculateJwkThumbprint(keys.publicJwk, 'sha256')}`;
});

async function idToken(claims: Record<string, unknown> = {}, signWith: JWK = keys.privateJwk): Promise<string> {
  return new SignJWT({ iss: sub, sub, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), exp: nowSeconds() + 600, sub_jwk: keys.publicJwk, ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .sign(await importJWK(signWith, 'ES256'));
}

describe('localVerifier.verifyIdToken (SIOPv2)', () => {
  it('accepts a self-issued ID token with a thumbprint subject (URN and bare forms)', async () => {
    const results = await verify(await idToken());
    expect(errorsOf(results)).toEqual([]);
    expect(results[0]).toMatchObject({ policy: 'proof', service: 'verifier', path: [], data: { subject: sub, subjectSyntaxType: 'jwk_thumbprint' } });
    const bare = sub.slice(sub.lastIndexOf(':') + 1);
    expect(errorsOf(await verify(await idToken({ iss: bare, sub: bare })))).toEqual([]);
  });

  it('accepts a DID subject and refuses sub_jwk alongside it', async () => {
    const holder = await didJwk();
    const token = await holder.sign({ iss: holder.did, sub: holder.did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), exp: nowSeconds() + 600 });
    expect(errorsOf(await verify(token))).toEqual([]);
    const withJwk = await holder.sign({ iss: holder.did, sub: holder.did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), exp: nowSeconds() + 600, sub_jwk: holder.publicJwk });
    expect(errorsOf(await verify(withJwk))).toEqual(['id_token.sub_jwk_not_allowed']);
  });

  it('rejects each broken rule with its own code', async () => {
    const other = await generateTestKeys();
    expect(errorsOf(await verify(await idToken({ iss: 'https://op.example' })))).toEqual(['id_token.not_self_issued']);
    expect(errorsOf(await verify(await idToken({ sub_jwk: other.publicJwk })))).toEqual(['id_token.sub_mismatch']);
    expect(errorsOf(await verify(await idToken({ sub_jwk: undefined })))).toEqual(['id_token.sub_jwk_missing']);
    expect(errorsOf(await verify(await idToken({}, other.privateJwk)))).toEqual(['id_token.signature_invalid']);
    expect(errorsOf(await verify(await idToken({ aud: 'x509_hash:someone-else' })))).toEqual(['id_token.aud_mismatch']);
    expect(errorsOf(await verify(await idToken({ nonce: 'other' })))).toEqual(['id_token.nonce_mismatch']);
    expect(errorsOf(await verify(await idToken({ exp: nowSeconds() - 3600 })))).toEqual(['id_token.expired']);
    expect(errorsOf(await verify(await idToken({ iat: nowSeconds() + 365 * 86_400 })))).toEqual(['id_token.iat_invalid']);
    expect(errorsOf(await verify(await idToken({ iat: nowSeconds() - 365 * 86_400 })))).toEqual(['id_token.iat_invalid']);
  });

  it('accepts a multi-audience array only when azp is the client_id', async () => {
    expect(errorsOf(await verify(await idToken({ aud: [CLIENT_ID] })))).toEqual([]);
    expect(errorsOf(await verify(await idToken({ aud: ['other', CLIENT_ID], azp: CLIENT_ID })))).toEqual([]);
    expect(errorsOf(await verify(await idToken({ aud: ['other', CLIENT_ID] })))).toEqual(['id_token.aud_mismatch']);
    expect(errorsOf(await verify(await idToken({ aud: ['other', CLIENT_ID], azp: 'other' })))).toEqual(['id_token.aud_mismatch']);
  });

  it('rejects a DID URL (fragment or path) as the subject', async () => {
    const holder = await didJwk();
    for (const subject of [holder.kid, `${holder.did}/path`]) {
      const token = await holder.sign({ iss: subject, sub: subject, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), exp: nowSeconds() + 600 });
      expect(errorsOf(await verify(token)), subject).toEqual(['id_token.sub_mismatch']);
    }
  });

  it('rejects an ID token whose nbf lies in the future', async () => {
    expect(errorsOf(await verify(await idToken({ nbf: nowSeconds() + 3600 })))).toEqual(['id_token.not_yet_valid']);
    expect(errorsOf(await verify(await idToken({ nbf: nowSeconds() - 60 })))).toEqual([]);
  });
});
