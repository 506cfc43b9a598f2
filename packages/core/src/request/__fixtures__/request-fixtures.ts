// Test helpers for the request side (not exported from the package).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as v from 'valibot';
import { instanceConfigSchema, type InstanceConfig, type InstanceConfigInput } from '../../config/instance-config.js';
import type { KeySigningInput as SigningInput } from '../../config/signing-input.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export const testConfig = (input: InstanceConfigInput = {}): InstanceConfig => v.parse(instanceConfigSchema, input);

/** A single self-signed P-256 certificate with its key (what HAIP forbids). */
export async function selfSignedSigningInput(dnsName = 'self.example'): Promise<SigningInput> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=self-signed test',
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }])],
  });
  return { privateKey: (await webcrypto.subtle.exportKey('jwk', keys.privateKey)) as JsonWebKey, certificateChain: [cert.toString('pem')] };
}

/** A leaf issued by a root, but itself a CA certificate (basicConstraints cA=true): not an end-entity signer. */
export async function caLeafSigningInput(): Promise<SigningInput> {
  const ec = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const alg = { name: 'ECDSA', hash: 'SHA-256' } as const;
  const rootKeys = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=test root',
    keys: rootKeys,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const leafKeys = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=ca leaf',
    issuer: root.subject,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'ca-leaf.example' }])],
  });
  return { privateKey: (await webcrypto.subtle.exportKey('jwk', leafKeys.privateKey)) as JsonWebKey, certificateChain: [leaf.toString('pem')], trustAnchor: root.toString('pem') };
}

export const sdJwtDcql = {
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }],
};

export const mdocDcql = {
  credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] }],
};

export const b64urlJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
