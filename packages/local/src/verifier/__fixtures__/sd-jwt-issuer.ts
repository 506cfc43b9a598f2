import { randomBytes, createHash } from 'node:crypto';
import { ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { JWK } from 'jose';
import { generateKeys, type TestCa, type TestKeys } from './test-ca.js';

const hasher = (data: string | ArrayBuffer, alg: string) => {
  if (alg !== 'sha-256') throw new Error(`unsupported ${alg}`);
  return new Uint8Array(createHash('sha256').update(typeof data === 'string' ? data : Buffer.from(data)).digest());
};
const saltGenerator = (length: number) => randomBytes(length).toString('base64url');

export interface SdJwtFixture {
  issuerCert: TestCa;
  holder: TestKeys;
  issue(options?: { claims?: Record<string, unknown>; frame?: Record<string, unknown>; header?: Record<string, unknown>; cnf?: JWK | null; issuerKeys?: TestKeys }): Promise<string>;
  present(credential: string, options?: { kb?: { nonce?: string; aud?: string; iat?: number; extra?: Record<string, unknown> } | false; holderKeys?: TestKeys }): Promise<string>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A real SD-JWT VC issuer (ES256, x5c leaf under `ca`) and holder (ES256 cnf.jwk). */
export async function createSdJwtFixture(ca: TestCa): Promise<SdJwtFixture> {
  const issuerCert = await ca.issue({ subject: 'CN=PID Issuer,O=vp-authorizer tests' });
  const holder = await generateKeys();
  return {
    issuerCert,
    holder,
    async issue({ claims = {}, frame = { _sd: ['given_name', 'family_name'] }, header, cnf, issuerKeys } = {}) {
      const sdjwt = new SDJwtVcInstance({ signer: await ES256.getSigner((issuerKeys ?? issuerCert).privateJwk), signAlg: 'ES256', hasher, hashAlg: 'sha-256', saltGenerator });
      const iat = nowSeconds();
      return sdjwt.issue(
        {
          iss: 'https://issuer.example',
          vct: 'urn:eudi:pid:1',
          iat,
          exp: iat + 3600,
          ...(cnf === null ? {} : { cnf: { jwk: cnf ?? holder.publicJwk } }),
          given_name: 'Erika',
          family_name: 'Mustermann',
          ...claims,
        },
        frame as never,
        { header: { x5c: [issuerCert.x5c], ...header } },
      );
    },
    async present(credential, { kb = {}, holderKeys } = {}) {
      const sdjwt = new SDJwtVcInstance({ hasher, kbSigner: await ES256.getSigner((holderKeys ?? holder).privateJwk), kbSignAlg: 'ES256' });
      if (kb === false) return sdjwt.present(credential, { given_name: true });
      const { nonce = 'n-0S6_WzA2Mj', aud = 'x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk', iat = nowSeconds(), extra = {} } = kb;
      return sdjwt.present(credential, { given_name: true }, { kb: { payload: { nonce, aud, iat, ...extra } as never } });
    },
  };
}
