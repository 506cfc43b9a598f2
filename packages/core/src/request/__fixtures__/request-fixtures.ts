// Test helpers for the request side (not exported from the package).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as v from 'valibot';
import { instanceConfigSchema, type InstanceConfig, type InstanceConfigInput } from '../../config/instance-config.js';
import type { SigningInput } from '../signing-material.js';

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

export const sdJwtDcql = {
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }],
};

export const mdocDcql = {
  credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] }],
};

export const b64urlJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
