// HAIP forbids a self-signed request-signing certificate: one whose signature verifies under its own
// key, whatever its extensions say and whatever its issuer name is spelled as. An end-entity certificate without keyCertSign is self-signed too, although
// OpenSSL's issuer check (X509Certificate.checkIssued) answers false for it.
import 'reflect-metadata';
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate, webcrypto } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, passThroughValidator, passThroughVerifier, type Authorizer, type KeySigningInput as SigningInput } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DCQL_SD_JWT } from './__fixtures__/test-authorizer.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) throw new Error('openssl is not on PATH: this test makes its certificate with the openssl CLI (apt-get install -y openssl)');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'haip-self-signed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `openssl req -x509` with an end-entity profile: CA:FALSE and digitalSignature only (no keyCertSign). */
function opensslEndEntity(): SigningInput {
  const key = join(dir, 'ee.key.pem');
  const cert = join(dir, 'ee.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '30',
    '-subj', '/CN=rp.example', '-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature', '-addext', 'subjectAltName=DNS:rp.example',
  ], { stdio: 'pipe' });
  return { privateKey: readFileSync(key, 'utf8'), certificateChain: [readFileSync(cert, 'utf8')] };
}

/**
 * An end-entity certificate signed with its own key but naming `issuer` (another case of the
 * subject, or any other name): `openssl x509 -req` against a stand-in "CA" certificate of that name
 * made from the leaf's own key. Nobody but the key holder vouches for it.
 */
function opensslOwnKeyNamingIssuer(issuer: string): SigningInput {
  const key = join(dir, 'own.key.pem');
  const csr = join(dir, 'own.csr');
  const ca = join(dir, 'own-ca.pem');
  const ext = join(dir, 'own-ext.cnf');
  const cert = join(dir, 'own.pem');
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=rp.example'], { stdio: 'pipe' });
  execFileSync('openssl', ['req', '-x509', '-key', key, '-out', ca, '-days', '30', '-subj', issuer], { stdio: 'pipe' });
  writeFileSync(ext, 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectAltName=DNS:rp.example\n');
  execFileSync('openssl', ['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', key, '-CAcreateserial', '-out', cert, '-days', '30', '-extfile', ext], { stdio: 'pipe' });
  return { privateKey: readFileSync(key, 'utf8'), certificateChain: [readFileSync(cert, 'utf8')] };
}

/** A self-signed root CA (cA=true, keyCertSign) used directly as the signing certificate. */
async function caStyleRoot(): Promise<SigningInput> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=root used as signer',
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true)],
  });
  return { privateKey: (await webcrypto.subtle.exportKey('jwk', keys.privateKey)) as JsonWebKey, certificateChain: [cert.toString('pem')] };
}

const build = (signing: SigningInput | SigningInput[]): Authorizer =>
  createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'main', apiKeys: ['k-123456789'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });

const haip = { profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } } as const;
const plain = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } } as const;

describe('HAIP refuses a self-signed request-signing certificate', () => {
  it('an end-entity certificate from openssl req -x509 (CA:FALSE, digitalSignature only): checkIssued misses it, HAIP does not', async () => {
    const signing = opensslEndEntity();
    const cert = new X509Certificate(signing.certificateChain[0]!);
    // The shape of the certificate this case is about: OpenSSL's issuer check says "not issued by itself".
    expect(cert.ca).toBe(false);
    expect(cert.subject).toBe(cert.issuer);
    expect(cert.checkIssued(cert)).toBe(false);
    const authorizer = build(signing);
    try {
      await expect(authorizer.createAuthorization('main', haip)).rejects.toMatchObject({
        code: 'haip.certificate_chain',
        errors: [{ code: 'haip.certificate_chain', detail: 'HAIP forbids a self-signed request-signing certificate' }],
      });
      // Outside HAIP a self-signed certificate stays usable (x509_hash pins the certificate itself).
      expect(await authorizer.createAuthorization('main', plain)).toMatchObject({ authorizationId: expect.any(String) });
    } finally {
      await authorizer.close();
    }
  });

  it.each([
    ['the subject in another case', '/CN=RP.EXAMPLE'],
    ['another name altogether', '/CN=Totally Real CA'],
  ])('a certificate signed by its own key is self-signed whatever its issuer name says (%s)', async (_, issuer) => {
    const signing = opensslOwnKeyNamingIssuer(issuer);
    const cert = new X509Certificate(signing.certificateChain[0]!);
    // The shape of the certificate this case is about: the names differ, the signature is its own.
    expect(cert.issuer).not.toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const authorizer = build(signing);
    try {
      await expect(authorizer.createAuthorization('main', haip)).rejects.toMatchObject({
        code: 'haip.certificate_chain',
        errors: [{ code: 'haip.certificate_chain', detail: 'HAIP forbids a self-signed request-signing certificate' }],
      });
    } finally {
      await authorizer.close();
    }
  });

  it('a CA-style self-signed root used as the signing certificate', async () => {
    const authorizer = build(await caStyleRoot());
    try {
      const refusal = authorizer.createAuthorization('main', haip);
      await expect(refusal).rejects.toMatchObject({ code: 'haip.certificate_chain' });
      const details = ((await refusal.catch((e: unknown) => e)) as { errors: { detail: string }[] }).errors.map((e) => e.detail);
      expect(details).toContain('HAIP forbids a self-signed request-signing certificate');
      expect(details).toContain('HAIP requires an end-entity request-signing certificate, not a CA certificate (basicConstraints cA=true)');
    } finally {
      await authorizer.close();
    }
  });

  it('a self-signed end-entity as a second signing identity refuses HAIP requests of the instance', async () => {
    const compliant = await generateDevSigningKey();
    const authorizer = build([compliant.signing, opensslEndEntity()]);
    try {
      await expect(authorizer.createAuthorization('main', haip)).rejects.toMatchObject({
        code: 'haip.certificate_chain',
        errors: [{ code: 'haip.certificate_chain', detail: 'HAIP forbids a self-signed request-signing certificate (signing identity 1)' }],
      });
    } finally {
      await authorizer.close();
    }
  });

  it('a leaf issued by a CA of the same name is self-issued, not self-signed, and passes', async () => {
    const alg = { name: 'ECDSA', hash: 'SHA-256' } as const;
    const ec = { name: 'ECDSA', namedCurve: 'P-256' } as const;
    const rootKeys = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=same name',
      keys: rootKeys,
      signingAlgorithm: alg,
      extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
    });
    const leafKeys = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
    const leaf = await x509.X509CertificateGenerator.create({
      subject: 'CN=same name',
      issuer: root.subject,
      publicKey: leafKeys.publicKey,
      signingKey: rootKeys.privateKey,
      signingAlgorithm: alg,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
    });
    const authorizer = build({ privateKey: (await webcrypto.subtle.exportKey('jwk', leafKeys.privateKey)) as JsonWebKey, certificateChain: [leaf.toString('pem')] });
    try {
      expect(await authorizer.createAuthorization('main', haip)).toMatchObject({ authorizationId: expect.any(String) });
    } finally {
      await authorizer.close();
    }
  });
});
