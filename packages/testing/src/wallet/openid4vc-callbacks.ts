import 'reflect-metadata';
import { createHash } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CallbackContext, JwtSigner } from '@openid4vc/oauth2';
import { type JWK, compactVerify, exportJWK, importJWK, importX509 } from 'jose';
import { base64UrlToText } from './base64url.js';
import { encryptResponse } from './encrypt-response.js';

const pem = (base64: string): string => `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

async function signerKey(signer: JwtSigner) {
  if (signer.method === 'x5c') return importX509(pem(signer.x5c[0]!), signer.alg);
  if (signer.method === 'jwk') return importJWK(signer.publicJwk as JWK, signer.alg);
  if (signer.method === 'did' && signer.didUrl.startsWith('did:jwk:')) {
    return importJWK(JSON.parse(base64UrlToText(signer.didUrl.slice('did:jwk:'.length).split('#')[0]!)) as JWK, signer.alg);
  }
  throw new Error(`test wallet: cannot resolve a ${signer.method} signer`);
}

/**
 * Holder-side callbacks for @openid4vc/openid4vp 0.4.6, on jose and Node crypto. The wallet
 * publishes no keys of its own, so decrypting (encrypted request objects) is refused.
 */
export const openid4vcCallbacks: Pick<CallbackContext, 'hash' | 'verifyJwt' | 'getX509CertificateMetadata' | 'decryptJwe' | 'encryptJwe' | 'signJwt' | 'fetch'> = {
  hash: (data, alg) => new Uint8Array(createHash(alg.replace('-', '')).update(data).digest()),
  async verifyJwt(signer, { compact }) {
    try {
      const key = await signerKey(signer);
      await compactVerify(compact, key, { algorithms: [signer.alg] });
      return { verified: true, signerJwk: (await exportJWK(key)) as never };
    } catch {
      return { verified: false };
    }
  },
  getX509CertificateMetadata(certificate) {
    const names = new x509.X509Certificate(Buffer.from(certificate, 'base64')).getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
    return {
      sanDnsNames: names.filter((name) => name.type === 'dns').map((name) => name.value),
      sanUriNames: names.filter((name) => name.type === 'url').map((name) => name.value),
    };
  },
  signJwt: () => {
    throw new Error('test wallet: responses are encrypted, never signed (no JARM signing)');
  },
  decryptJwe: () => {
    throw new Error('test wallet: encrypted request objects are not supported');
  },
  async encryptJwe(encryptor, data) {
    const jwe = await encryptResponse(JSON.parse(data) as Record<string, unknown>, encryptor.publicJwk as JsonWebKey, {
      enc: encryptor.enc as 'A128GCM' | 'A256GCM',
      ...(encryptor.apu ? { apu: encryptor.apu } : {}),
      ...(encryptor.apv ? { apv: encryptor.apv } : {}),
    });
    return { encryptionJwk: encryptor.publicJwk, jwe };
  },
  fetch: (input, init) => fetch(input, init),
};
