import { createHash, createPrivateKey, randomBytes, sign as cryptoSign } from 'node:crypto';
import { DeviceResponse, Document, MDoc, type MdocContext } from '@animo-id/mdoc';
import { tag24Encoding } from '../verifier/mdoc/mdoc-cbor.js';
import { generateTestKeys, type IssuedCertificate, type TestCa, type TestKeys } from '@vp-authorizer/testing';

const HASHES = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

/** Node-crypto implementation of the context @animo-id/mdoc needs to issue and present. */
export const mdocContext = {
  crypto: {
    random: (length: number) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }: { digestAlgorithm: keyof typeof HASHES; bytes: Uint8Array }) => new Uint8Array(createHash(HASHES[digestAlgorithm]).update(bytes).digest()),
    calculateEphemeralMacKeyJwk: () => {
      throw new Error('MAC not used in tests');
    },
  },
  cose: {
    sign1: {
      // The hash follows the key's curve: P-256 → SHA-256 (ES256), P-384 → SHA-384 (ES384).
      sign: ({ sign1, jwk }: { sign1: { getRawSigningData(): { data: Uint8Array } }; jwk: Record<string, unknown> }) =>
        new Uint8Array(cryptoSign(jwk.crv === 'P-384' ? 'sha384' : 'sha256', sign1.getRawSigningData().data, { key: createPrivateKey({ key: jwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' })),
      verify: () => {
        throw new Error('not used');
      },
    },
    mac0: {
      sign: () => {
        throw new Error('not used');
      },
      verify: () => {
        throw new Error('not used');
      },
    },
  },
} as unknown as Pick<MdocContext, 'crypto' | 'cose'>;

export const MDL = 'org.iso.18013.5.1.mDL';
export const MDL_NS = 'org.iso.18013.5.1';

export interface MdocFixture {
  issuerCert: TestCa;
  device: TestKeys;
  /** base64url DeviceResponse signed over `transcript`. */
  /**
   * base64url DeviceResponse signed over `transcript`. `issuerAlg` / `deviceAlg` pick the COSE alg of
   * issuerAuth / deviceSignature (ES384 needs a P-384 `signerCert` / `deviceKeys` with matching MSO device key).
   */
  deviceResponse(options: {
    transcript: Uint8Array;
    validFrom?: Date;
    validUntil?: Date;
    docType?: string;
    deviceKeys?: TestKeys;
    /** The device key the MSO binds (defaults to the fixture device key). */
    msoDeviceKey?: TestKeys;
    issuerKeys?: TestKeys;
    signerCert?: IssuedCertificate;
    issuerAlg?: 'ES256' | 'ES384';
    deviceAlg?: 'ES256' | 'ES384';
  }): Promise<string>;
}

/** A real mDL issuer (document signer under `ca`) and device key, via @animo-id/mdoc. */
export async function createMdocFixture(ca: TestCa): Promise<MdocFixture> {
  const issuerCert = await ca.issue({ subject: 'CN=mDL Document Signer,C=DE' });
  const device = await generateTestKeys();
  return {
    issuerCert,
    device,
    async deviceResponse({ transcript, validFrom = new Date(Date.now() - 60_000), validUntil = new Date(Date.now() + 86_400_000), docType = MDL, deviceKeys, msoDeviceKey = device, issuerKeys, signerCert = issuerCert, issuerAlg = 'ES256', deviceAlg = 'ES256' }) {
      const signed = await new Document(docType, mdocContext)
        .addIssuerNameSpace(MDL_NS, { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true })
        .addValidityInfo({ signed: new Date(Date.now() - 60_000), validFrom, validUntil })
        .addDeviceKeyInfo({ deviceKey: msoDeviceKey.publicJwk as never })
        .sign({ issuerPrivateKey: (issuerKeys ?? signerCert).privateJwk as never, issuerCertificate: signerCert.der, alg: issuerAlg }, mdocContext);
      const response = await DeviceResponse.from(new MDoc([signed]))
        .usingPresentationDefinition({
          id: 'pd',
          input_descriptors: [
            {
              id: docType,
              format: { mso_mdoc: { alg: [deviceAlg] } },
              constraints: { limit_disclosure: 'required', fields: [{ path: [`$['${MDL_NS}']['given_name']`], intent_to_retain: false }, { path: [`$['${MDL_NS}']['age_over_18']`], intent_to_retain: false }] },
            },
          ],
        })
        // @animo-id/mdoc 0.5.2 expects the transcript as a tag-24 DataItem and embeds its decoded value.
        .usingSessionTranscriptBytes(tag24Encoding(transcript))
        .authenticateWithSignature((deviceKeys ?? msoDeviceKey).privateJwk as never, deviceAlg)
        .sign(mdocContext);
      return Buffer.from(response.encode()).toString('base64url');
    },
  };
}
