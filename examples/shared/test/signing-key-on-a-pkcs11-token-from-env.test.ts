// AUTHZ_PKCS11_* and AUTHZ_SIGNING_CERT_CHAIN_FILE: the examples sign with a key on a SoftHSM2
// token, its certificate issued from the token's own CSR by an openssl CA (the CSR → chain path).
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCertificateSigningRequest } from '@vp-authorizer/keys';
import { generatePkcs11Key, openPkcs11Signer } from '@vp-authorizer/pkcs11';
import { configFromEnv, EnvConfigError, exampleAuthorizer } from '../config-from-env.mjs';
import { haipRequestObject } from './__fixtures__/haip-request-object.js';

const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const PIN = 'env-pin-5521x';
const dir = mkdtempSync(join(tmpdir(), 'examples-pkcs11-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the examples\' signing key on a PKCS#11 token', () => {
  it('refuses an incomplete PKCS#11 setting, naming each variable, never the PIN', () => {
    let problems: { variable: string; message: string }[] = [];
    try {
      configFromEnv({ AUTHZ_PKCS11_MODULE: MODULE, AUTHZ_PKCS11_PIN: PIN, AUTHZ_REGISTRATION_CERTS_FILE: join(dir, 'missing.jwt') }, { defaultPort: 3001 });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvConfigError);
      problems = (error as EnvConfigError).problems;
    }
    expect(problems.map((p) => p.variable)).toEqual(['AUTHZ_PKCS11_TOKEN_LABEL', 'AUTHZ_PKCS11_KEY_LABEL', 'AUTHZ_SIGNING_CERT_CHAIN_FILE', 'AUTHZ_REGISTRATION_CERTS_FILE', 'AUTHZ_REGISTRATION_CERTS_FILE']);
    expect(JSON.stringify(problems)).not.toContain(PIN);
  });

  it('signs request objects on the token, with the certificate an openssl CA issued from the token\'s CSR', async () => {
    mkdirSync(join(dir, 'tokens'));
    writeFileSync(join(dir, 'softhsm2.conf'), `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
    process.env.SOFTHSM2_CONF = join(dir, 'softhsm2.conf');
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', 'examples', '--pin', PIN, '--so-pin', `${PIN}-so`], { stdio: 'pipe' });
    await generatePkcs11Key({ module: MODULE, token: { label: 'examples' }, pin: PIN, label: 'signing' });
    const forCsr = await openPkcs11Signer({ module: MODULE, token: { label: 'examples' }, pin: PIN, key: { label: 'signing' }, sessions: 1 });
    const csr = await createCertificateSigningRequest({ key: { publicKey: forCsr.publicKey, sign: (d) => forCsr.sign(d) }, dnsName: 'rp.example', organization: 'Example RP', organizationId: 'LEIXG-529900T8BM49AURSDO55' });
    await forCsr.close();
    const file = (name: string) => join(dir, name);
    writeFileSync(file('rp.csr'), csr);
    writeFileSync(file('ca.cnf'), '[ca_ext]\nbasicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-subj', '/CN=Test access CA', '-days', '2', '-config', file('ca.cnf'), '-extensions', 'ca_ext'], { stdio: 'pipe' });
    execFileSync('openssl', ['x509', '-req', '-in', file('rp.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '1', '-copy_extensions', 'copy', '-out', file('rp.pem')], { stdio: 'pipe' });

    const config = configFromEnv(
      { AUTHZ_PKCS11_MODULE: MODULE, AUTHZ_PKCS11_TOKEN_LABEL: 'examples', AUTHZ_PKCS11_KEY_LABEL: 'signing', AUTHZ_PKCS11_PIN: PIN, AUTHZ_SIGNING_CERT_CHAIN_FILE: file('rp.pem'), AUTHZ_SIGNING_TRUST_ANCHOR_FILE: file('ca.pem') },
      { defaultPort: 3001 },
    );
    const example = await exampleAuthorizer(config, { origin: 'http://127.0.0.1:3001', mountPath: '/authz' });
    try {
      const { signedByLeaf, header } = await haipRequestObject(example.authorizer, readFileSync(file('rp.pem')));
      expect(signedByLeaf).toBe(true);
      expect(header.x5c).toEqual([new X509Certificate(readFileSync(file('rp.pem'))).raw.toString('base64')]);
    } finally {
      await example.close();
    }
  });
});
