import { randomUUID } from 'node:crypto';
import { type JWK, SignJWT, importJWK } from 'jose';
import { didJwk } from './did-jwk.js';
import { generateP256KeyPair } from './holder-key.js';
import type { JwtVcWalletCredential, PresentationTamper } from './wallet-credential.js';

/**
 * A JWT VP signed by the holder's did:jwk, binding `nonce` and `aud` (OpenID4VP 1.0 B.1).
 * VCDM 1.1: `vp` claim with the VC JWTs; VCDM 2.0 (VC-JOSE-COSE): the payload is the
 * presentation and each VC is an EnvelopedVerifiableCredential data URL.
 */
export async function presentJwtVc(input: {
  credential: JwtVcWalletCredential;
  nonce: string;
  audience: string;
  tamper?: PresentationTamper;
}): Promise<string> {
  const { credential, tamper = {} } = input;
  if (tamper.omitHolderBinding) return credential.jwt;
  const { did, kid } = didJwk(credential.holderKey.publicJwk);
  const signingKey = tamper.wrongHolderKey ? await generateP256KeyPair() : credential.holderKey;
  const iat = Math.floor(Date.now() / 1000) + (tamper.iatOffsetSeconds ?? 0);
  const common = { nonce: tamper.nonce ?? input.nonce, aud: tamper.audience ?? input.audience, iss: did, iat, exp: iat + 300, jti: `urn:uuid:${randomUUID()}` };
  const payload =
    credential.dataModel === '1.1'
      ? { ...common, vp: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiablePresentation'], holder: did, verifiableCredential: [credential.jwt] } }
      : {
          ...common,
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiablePresentation'],
          holder: did,
          verifiableCredential: [{ '@context': ['https://www.w3.org/ns/credentials/v2'], id: `data:application/vc+jwt,${credential.jwt}`, type: 'EnvelopedVerifiableCredential' }],
        };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', typ: credential.dataModel === '1.1' ? 'JWT' : 'vp+jwt', kid })
    .sign(await importJWK(signingKey.privateJwk as JWK, 'ES256'));
}
