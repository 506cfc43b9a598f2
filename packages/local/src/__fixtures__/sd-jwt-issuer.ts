import { randomBytes, createHash } from 'node:crypto';
import { ES256, ES384 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { importJWK, SignJWT, type JWK } from 'jose';
import { generateTestKeys, type TestCa, type TestKeys } from '@vp-authorizer/testing';

const hasher = (data: string | ArrayBuffer, alg: string) => {
  if (alg !== 'sha-256') throw new Error(`unsupported ${alg}`);
  return new Uint8Array(createHash('sha256').update(typeof data === 'string' ? data : Buffer.from(data)).digest());
};
const saltGenerator = (length: number) => randomBytes(length).toString('base64url');

export interface SdJwtFixture {
  issuerCert: TestCa;
  holder: TestKeys;
  /** `alg` ES384 needs P-384 `issuerKeys` (and an x5c header for them). */
  issue(options?: { claims?: Record<string, unknown>; frame?: Record<string, unknown>; header?: Record<string, unknown>; cnf?: JWK | null; issuerKeys?: TestKeys; alg?: 'ES256' | 'ES384' }): Promise<string>;
  /**
   * `kb.header` or `kb.alg` builds the KB-JWT by hand (typ kb+jwt and the real sd_hash unless
   * `header` overrides them), for headers @sd-jwt/core does not let a caller choose.
   */
  present(
    credential: string,
    options?: { kb?: { nonce?: string; aud?: string; iat?: number; extra?: Record<string, unknown>; header?: Record<string, unknown>; alg?: 'ES256' | 'ES384' } | false; holderKeys?: TestKeys },
  ): Promise<string>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A real SD-JWT VC issuer (ES256, x5c leaf under `ca`) and holder (ES256 cnf.jwk). */
export async function createSdJwtFixture(ca: TestCa): Promise<SdJwtFixture> {
  const issuerCert = await ca.issue({ subject: 'CN=PID Issuer,O=vp-authorizer tests' });
  const holder = await generateTestKeys();
  return {
    issuerCert,
    holder,
    async issue({ claims = {}, frame = { _sd: ['given_name', 'family_name'] }, header, cnf, issuerKeys, alg = 'ES256' } = {}) {
      const signer = await (alg === 'ES384' ? ES384 : ES256).getSigner((issuerKeys ?? issuerCert).privateJwk);
      const sdjwt = new SDJwtVcInstance({ signer, signAlg: alg, hasher, hashAlg: 'sha-256', saltGenerator });
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
      if (kb === false) return new SDJwtVcInstance({ hasher }).present(credential, { given_name: true });
      const { nonce = 'n-0S6_WzA2Mj', aud = 'x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk', iat = nowSeconds(), extra = {} } = kb;
      if (kb.header !== undefined || kb.alg !== undefined) {
        const alg = kb.alg ?? 'ES256';
        const presented = await new SDJwtVcInstance({ hasher }).present(credential, { given_name: true });
        const sdHash = createHash('sha256').update(presented).digest('base64url');
        const kbJwt = await new SignJWT({ nonce, aud, iat, sd_hash: sdHash, ...extra })
          .setProtectedHeader({ alg, typ: 'kb+jwt', ...kb.header })
          .sign(await importJWK((holderKeys ?? holder).privateJwk, alg));
        return `${presented}${kbJwt}`;
      }
      const sdjwt = new SDJwtVcInstance({ hasher, kbSigner: await ES256.getSigner((holderKeys ?? holder).privateJwk), kbSignAlg: 'ES256' });
      return sdjwt.present(credential, { given_name: true }, { kb: { payload: { nonce, aud, iat, ...extra } as never } });
    },
  };
}
