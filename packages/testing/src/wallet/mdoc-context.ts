import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { MdocContext } from '@animo-id/mdoc';
import type { JWK } from 'jose';

// COSE names (as the library reports them) → WebCrypto parameters.
const CURVES: Record<string, { namedCurve: string; hash: string }> = {
  ES256: { namedCurve: 'P-256', hash: 'SHA-256' },
  ES384: { namedCurve: 'P-384', hash: 'SHA-384' },
  ES512: { namedCurve: 'P-521', hash: 'SHA-512' },
};

function ecParams(alg: string): { namedCurve: string; hash: string } {
  const params = CURVES[alg];
  if (!params) throw new Error(`test wallet: unsupported COSE algorithm ${alg}`);
  return params;
}

// @peculiar/x509 wants ArrayBuffer-backed views; copy whatever the library hands over.
const cert = (der: Uint8Array): x509.X509Certificate => new x509.X509Certificate(new Uint8Array(der));

const importEcKey = (jwk: JWK, alg: string, usage: 'sign' | 'verify') =>
  webcrypto.subtle.importKey('jwk', jwk as webcrypto.JsonWebKey, { name: 'ECDSA', namedCurve: ecParams(alg).namedCurve }, false, [usage]);

/**
 * The crypto callbacks @animo-id/mdoc 0.5.2 needs, on Node's WebCrypto. COSE signatures are the
 * raw `r||s` form WebCrypto produces. MAC-based device authentication is not offered: OpenID4VP
 * defines no reader key for it.
 */
export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKeyJwk: () => {
      throw new Error('test wallet: deviceMac is not supported');
    },
  },
  cose: {
    sign1: {
      async sign({ sign1, jwk }) {
        const { data, alg } = sign1.getRawSigningData();
        const key = await importEcKey(jwk, alg, 'sign');
        return new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: ecParams(alg).hash }, key, data));
      },
      async verify({ sign1, jwk, options }) {
        const { data, alg, signature } = sign1.getRawVerificationData(options);
        const key = await importEcKey(jwk, alg, 'verify');
        return webcrypto.subtle.verify({ name: 'ECDSA', hash: ecParams(alg).hash }, key, signature, data);
      },
    },
    mac0: {
      sign: () => {
        throw new Error('test wallet: deviceMac is not supported');
      },
      verify: () => {
        throw new Error('test wallet: deviceMac is not supported');
      },
    },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) => cert(certificate).issuerName.getField(field),
    async getPublicKey({ certificate, alg }) {
      const publicKey = await cert(certificate).publicKey.export(
        { name: 'ECDSA', namedCurve: ecParams(alg).namedCurve },
        ['verify'],
        webcrypto as unknown as Crypto,
      );
      return (await webcrypto.subtle.exportKey('jwk', publicKey as unknown as webcrypto.CryptoKey)) as JWK;
    },
    async validateCertificateChain({ trustedCertificates, x5chain }) {
      // Enough for the test wallet's self-checks: the leaf must be signed by a trusted certificate.
      const leaf = cert(x5chain[0]);
      for (const trusted of trustedCertificates) {
        const anchor = cert(trusted);
        if (await leaf.verify({ publicKey: anchor.publicKey, signatureOnly: true })) return;
      }
      throw new Error('certificate chain does not lead to a trusted certificate');
    },
    getCertificateData({ certificate }) {
      const certificateInfo = cert(certificate);
      return {
        issuerName: certificateInfo.issuer,
        subjectName: certificateInfo.subject,
        serialNumber: certificateInfo.serialNumber,
        thumbprint: createHash('sha1').update(new Uint8Array(certificateInfo.rawData)).digest('hex'),
        notBefore: certificateInfo.notBefore,
        notAfter: certificateInfo.notAfter,
        pem: certificateInfo.toString('pem'),
      };
    },
  },
};
