import 'reflect-metadata';
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** The key a certificate signing request is for: a private key in hand, or a signer that holds it elsewhere (a PKCS#11 token). */
export type CsrKey =
  | { privateKeyPem: string }
  | {
      /** The public key of the key held elsewhere. */
      publicKey: KeyObject;
      /** ES256 over the bytes given (SHA-256 inside), answering r || s: a RequestSigner's `sign`. */
      sign(data: Uint8Array): Promise<Uint8Array>;
    };

export interface CsrOptions {
  key: CsrKey;
  /** dNSName for the subjectAltName (and the common name unless `commonName` is given). */
  dnsName: string;
  /** organizationName (O) of the relying party. */
  organization: string;
  /**
   * organizationIdentifier (2.5.4.97, ETSI EN 319 412-1 semantics identifier, e.g. LEIXG-…,
   * VATDE-…, NTRDE-…): the identifier the registrar knows the relying party by, which its
   * registration certificate names in `sub.id`.
   */
  organizationId: string;
  /** countryName (C), two letters. */
  country?: string;
  commonName?: string;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * A PKCS#10 certificate signing request (RFC 2986) for a P-256 request-signing key, as an access
 * certificate authority needs it: subject CN, O, organizationIdentifier (and C), an extension
 * request for the dNSName subjectAltName, keyUsage digitalSignature, not a CA; signed ES256 by the
 * key itself (proof of possession). Answers PEM.
 */
export async function createCertificateSigningRequest(options: CsrOptions): Promise<string> {
  const name: x509.JsonName = [
    ...(options.country ? [{ C: [options.country] }] : []),
    { O: [options.organization] },
    { '2.5.4.97': [options.organizationId] },
    { CN: [options.commonName ?? options.dnsName] },
  ];
  const extensions = [
    new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.dnsName }]),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.BasicConstraintsExtension(false, undefined, true),
  ];
  const { key } = options;
  if ('privateKeyPem' in key) {
    const privateKeyObject = createPrivateKey(key.privateKeyPem);
    if (privateKeyObject.asymmetricKeyType !== 'ec' || privateKeyObject.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('the key must be an EC P-256 private key (ES256)');
    const jwk = privateKeyObject.export({ format: 'jwk' });
    const keys: CryptoKeyPair = {
      privateKey: await webcrypto.subtle.importKey('jwk', jwk, EC, false, ['sign']),
      publicKey: await webcrypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, EC, true, ['verify']),
    };
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: SIGNING, extensions }, webcrypto as unknown as Crypto);
    return csr.toString('pem');
  }
  // A key held elsewhere: WebCrypto as usual, except that signing with the stand-in private key
  // goes to the signer (WebCrypto's ECDSA answers r || s too, which the generator turns into DER).
  const publicKey = await webcrypto.subtle.importKey('spki', key.publicKey.export({ format: 'der', type: 'spki' }), EC, true, ['verify']);
  const standIn = { algorithm: EC, type: 'private', extractable: false, usages: ['sign'] } as unknown as CryptoKey;
  const subtle = webcrypto.subtle;
  const crypto = {
    getRandomValues: webcrypto.getRandomValues.bind(webcrypto),
    subtle: new Proxy(subtle, {
      get(target, prop) {
        if (prop === 'sign') {
          return async (algorithm: unknown, signingKey: CryptoKey, data: BufferSource) =>
            signingKey === standIn ? (await key.sign(new Uint8Array(ArrayBuffer.isView(data) ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data))).slice().buffer : target.sign(algorithm as EcdsaParams, signingKey, data);
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }),
  } as unknown as Crypto;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys: { privateKey: standIn, publicKey }, signingAlgorithm: SIGNING, extensions }, crypto);
  return csr.toString('pem');
}
