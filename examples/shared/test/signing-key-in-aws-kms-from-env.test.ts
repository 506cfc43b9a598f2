// AUTHZ_AWS_KMS_* and AUTHZ_SIGNING_CERT_CHAIN_FILE: the examples sign with a key in AWS KMS, here a
// local fake of the KMS Sign API reached through AUTHZ_AWS_KMS_ENDPOINT with static credentials.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestCa, startFakeAwsKms } from '@vp-authorizer/testing';
import { configFromEnv, EnvConfigError, exampleAuthorizer } from '../config-from-env.mjs';
import { haipRequestObject } from './__fixtures__/haip-request-object.js';

const dir = mkdtempSync(join(tmpdir(), 'examples-kms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const problemsOf = (env: Record<string, string>) => {
  try {
    configFromEnv(env, { defaultPort: 3001 });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(EnvConfigError);
    return (error as EnvConfigError).problems;
  }
};

describe('the examples\' signing key in AWS KMS', () => {
  it('refuses an incomplete or conflicting KMS setting, naming each variable', () => {
    expect(problemsOf({ AUTHZ_AWS_KMS_KEY_ID: 'alias/rp', AUTHZ_AWS_KMS_ENDPOINT: 'ftp://kms.example', AUTHZ_AWS_KMS_TIMEOUT_MS: '0' }).map((p) => p.variable)).toEqual([
      'AUTHZ_AWS_KMS_REGION',
      'AUTHZ_AWS_KMS_ENDPOINT',
      'AUTHZ_AWS_KMS_TIMEOUT_MS',
      'AUTHZ_SIGNING_CERT_CHAIN_FILE',
    ]);
    const both = problemsOf({ AUTHZ_AWS_KMS_KEY_ID: 'alias/rp', AWS_REGION: 'eu-central-1', AUTHZ_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so', AUTHZ_PKCS11_TOKEN_LABEL: 't', AUTHZ_PKCS11_KEY_LABEL: 'k', AUTHZ_PKCS11_PIN: '1234', AUTHZ_SIGNING_CERT_CHAIN_FILE: join(dir, 'missing.pem') });
    expect(both.map((p) => p.variable)).toContain('AUTHZ_AWS_KMS_KEY_ID');
  });

  it('signs request objects through KMS with the configured chain', async () => {
    const ca = await createTestCa('CN=Test access CA');
    const leaf = await ca.issue({ subject: 'CN=rp.example,O=Example RP', dnsName: 'rp.example' });
    writeFileSync(join(dir, 'rp.pem'), leaf.pem);
    writeFileSync(join(dir, 'ca.pem'), ca.pem);
    const kms = await startFakeAwsKms({ privateKey: leaf.privateJwk as JsonWebKey });
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    // The SDK's default credential chain reads these first.
    process.env.AWS_ACCESS_KEY_ID = 'AKIDFAKEKMS0000';
    process.env.AWS_SECRET_ACCESS_KEY = 'fake-secret-access-key';
    try {
      const config = configFromEnv(
        { AUTHZ_AWS_KMS_KEY_ID: kms.keyId, AUTHZ_AWS_KMS_REGION: 'eu-central-1', AUTHZ_AWS_KMS_ENDPOINT: kms.endpoint, AUTHZ_AWS_KMS_TIMEOUT_MS: '3000', AUTHZ_SIGNING_CERT_CHAIN_FILE: join(dir, 'rp.pem'), AUTHZ_SIGNING_TRUST_ANCHOR_FILE: join(dir, 'ca.pem') },
        { defaultPort: 3001 },
      );
      const example = await exampleAuthorizer(config, { origin: 'http://127.0.0.1:3001', mountPath: '/authz' });
      try {
        const { signedByLeaf, header } = await haipRequestObject(example.authorizer, leaf.pem);
        expect(signedByLeaf).toBe(true);
        expect(header.x5c).toEqual([leaf.x5c]);
        // The probe at start, then this request object.
        expect(kms.calls).toBe(2);
      } finally {
        await example.close();
      }
    } finally {
      for (const [name, value] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await kms.close();
    }
  });
});
