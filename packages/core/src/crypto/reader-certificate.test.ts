import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { Decoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { sharedTestdataJson } from './__fixtures__/shared-testdata.js';
import { readerCertificateProblems } from './reader-certificate.js';

const der = (pem: string) => new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));

describe('mdoc reader certificate profile (ISO/IEC 18013-5 Annex B)', () => {
  it('accepts a leaf with the reader-authentication EKU and digitalSignature', async () => {
    expect(readerCertificateProblems(der((await generateDevSigningKey({ readerAuth: true })).leafCertificatePem)))
      .toEqual([]);
  });

  it('names the missing EKU of a request-signing certificate, and of the reader certificate multipaz deploys (digitalSignature only)', async () => {
    expect(readerCertificateProblems(der((await generateDevSigningKey()).leafCertificatePem))).toEqual([
      'lacks the mdoc reader authentication extended key usage 1.0.18013.5.1.6 (ISO/IEC 18013-5)',
    ]);
    const capture = sharedTestdataJson<{ annexc_multipaz_capture: { deviceRequest: string } }>('annexc-vectors.json').annexc_multipaz_capture;
    const request = new Decoder({ mapsAsObjects: false, useRecords: false }).decode(Buffer.from(capture.deviceRequest, 'base64url')) as Map<string, unknown>;
    const readerAuth = (request.get('docRequests') as Map<string, unknown>[])[0]!.get('readerAuth') as unknown[];
    const leaf = (readerAuth[1] as Map<number, Uint8Array[]>).get(33)![0]!;
    expect(readerCertificateProblems(leaf)).toEqual(['lacks the mdoc reader authentication extended key usage 1.0.18013.5.1.6 (ISO/IEC 18013-5)']);
  });

  it('names an EKU list without the reader purpose, and a keyUsage without digitalSignature', async () => {
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=not a reader',
      keys,
      signingAlgorithm: alg,
      extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true), new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.1'])],
    });
    expect(readerCertificateProblems(new Uint8Array(cert.rawData))).toEqual([
      'lacks the mdoc reader authentication extended key usage 1.0.18013.5.1.6 (ISO/IEC 18013-5); it lists 1.3.6.1.5.5.7.3.1',
      'lacks keyUsage digitalSignature',
    ]);
    expect(readerCertificateProblems(new Uint8Array([0x30, 0x00]))).toEqual(['is not a readable X.509 certificate']);
  });
});
