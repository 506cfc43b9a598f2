// AUTHZ_AWS_KMS_* and AUTHZ_SIGNING_CERT_CHAIN_FILE: the standalone server and the examples sign
// request objects with a key held in AWS KMS, through the real @aws-sdk/client-kms pointed at a
// local fake of the KMS Sign API on 127.0.0.1 (never run against AWS itself). The SDK finds its
// credentials in its default chain, here the AWS_* environment variables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, importX509 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizerFromConfig, configFromEnv, EnvConfigError, loadServerSettings } from '@vp-authorizer/server';
import { createTestCa, startFakeAwsKms, type FakeAwsKms, type IssuedCertificate, type TestCa } from '@vp-authorizer/testing';

let dir: string;
let ca: TestCa;
let leaf: IssuedCertificate;
let kms: FakeAwsKms;
const credentials = { AWS_ACCESS_KEY_ID: 'AKIDFAKEKMSENV00', AWS_SECRET_ACCESS_KEY: 'fake-secret-access-key' } as const;
const saved = Object.fromEntries(Object.keys(credentials).map((name) => [name, process.env[name]]));
const file = (name: string) => join(dir, name);
const problemsOf = (env: Record<string, string>) => {
  try {
    configFromEnv(env, { defaultPort: 3000 });
  } catch (error) {
    expect(error).toBeInstanceOf(EnvConfigError);
    return (error as EnvConfigError).problems;
  }
  throw new Error('expected the settings to be refused');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-server-kms-'));
  ca = await createTestCa('CN=Test access CA,O=vp-authorizer tests');
  leaf = await ca.issue({ subject: 'CN=rp.example,O=Example RP', dnsName: 'rp.example' });
  writeFileSync(file('rp.pem'), leaf.pem);
  writeFileSync(file('ca.pem'), ca.pem);
  kms = await startFakeAwsKms({ privateKey: leaf.privateJwk as JsonWebKey });
  Object.assign(process.env, credentials);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await kms?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the request-signing key in AWS KMS, from the environment', () => {
  it('signs a HAIP request object through KMS that jose verifies under the chain\'s leaf', async () => {
    const config = configFromEnv(
      { AUTHZ_AWS_KMS_KEY_ID: kms.keyId, AUTHZ_AWS_KMS_REGION: 'eu-central-1', AUTHZ_AWS_KMS_ENDPOINT: kms.endpoint, AUTHZ_SIGNING_CERT_CHAIN_FILE: file('rp.pem'), AUTHZ_SIGNING_TRUST_ANCHOR_FILE: file('ca.pem') },
      { defaultPort: 3000 },
    );
    expect(config.awsKms).toMatchObject({ keyId: kms.keyId, region: 'eu-central-1', endpoint: kms.endpoint, certificateChain: [leaf.pem.trim()] });
    const configured = await authorizerFromConfig(config, { origin: 'http://127.0.0.1:3000', mountPath: '' });
    try {
      expect(configured.signingKey).toBe('aws-kms');
      const created = (await configured.authorizer.createAuthorization('main', {
        profile: 'haip',
        responseMode: 'direct_post.jwt',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } },
      })) as { authorizationId: string };
      const callsBefore = kms.calls;
      const jwt = await configured.authorizer.getRequestObject(created.authorizationId);
      const { protectedHeader } = await compactVerify(jwt, await importX509(leaf.pem, 'ES256'));
      expect(protectedHeader.alg).toBe('ES256');
      expect(protectedHeader.x5c).toEqual([leaf.x5c]);
      // The signature came from KMS: a Sign call for the configured key over a digest.
      expect(kms.calls).toBeGreaterThan(callsBefore);
      expect(kms.lastRequest).toMatchObject({ KeyId: kms.keyId, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    } finally {
      await configured.close();
    }
  });

  it('refuses a KMS key without its certificate chain or region, naming the variables to set', () => {
    const problems = problemsOf({ AUTHZ_AWS_KMS_KEY_ID: 'alias/rp-signing', AUTHZ_AWS_KMS_ENDPOINT: 'not a url' });
    expect(problems).toEqual([
      { variable: 'AUTHZ_AWS_KMS_REGION', message: "is required with AUTHZ_AWS_KMS_KEY_ID (the key's AWS region, such as eu-central-1)" },
      { variable: 'AUTHZ_AWS_KMS_ENDPOINT', message: 'must be an http(s) URL (a KMS-compatible endpoint)' },
      { variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: "is required with AUTHZ_AWS_KMS_KEY_ID (the key's certificate, leaf first, without the root)" },
    ]);
    const missing = problemsOf({ AUTHZ_AWS_KMS_KEY_ID: 'alias/rp-signing', AUTHZ_AWS_KMS_REGION: 'eu-central-1', AUTHZ_SIGNING_CERT_CHAIN_FILE: file('absent.pem') });
    expect(missing).toEqual([{ variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: `cannot read ${file('absent.pem')} (ENOENT)` }]);
    expect(problemsOf({ AUTHZ_AWS_KMS_REGION: 'eu-central-1' })).toEqual([{ variable: 'AUTHZ_AWS_KMS_REGION', message: 'needs AUTHZ_AWS_KMS_KEY_ID (the KMS key that signs)' }]);
  });

  it('refuses a KMS key together with a PKCS#11 token or a key file: one signing key, the other to unset', () => {
    const withToken = problemsOf({
      AUTHZ_AWS_KMS_KEY_ID: 'alias/rp-signing', AUTHZ_AWS_KMS_REGION: 'eu-central-1',
      AUTHZ_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so', AUTHZ_PKCS11_TOKEN_LABEL: 'rp', AUTHZ_PKCS11_KEY_LABEL: 'signing', AUTHZ_PKCS11_PIN: 'pin-never-shown-1', AUTHZ_SIGNING_CERT_CHAIN_FILE: file('rp.pem'),
    });
    expect(withToken).toEqual([{ variable: 'AUTHZ_AWS_KMS_KEY_ID', message: 'names a key in AWS KMS, and AUTHZ_PKCS11_MODULE a key on a token: set one of them (unset the other)' }]);
    expect(JSON.stringify(withToken)).not.toContain('pin-never-shown-1');
    const withFile = problemsOf({ AUTHZ_AWS_KMS_KEY_ID: 'alias/rp-signing', AUTHZ_AWS_KMS_REGION: 'eu-central-1', AUTHZ_SIGNING_KEY_FILE: file('absent-key.pem'), AUTHZ_SIGNING_CERT_CHAIN_FILE: file('rp.pem') });
    expect(withFile).toContainEqual({ variable: 'AUTHZ_AWS_KMS_KEY_ID', message: 'names a key in AWS KMS, and AUTHZ_SIGNING_KEY_FILE a key file: set one of them (unset the other)' });
  });

  it('takes the same key from the configuration file\'s signing.awsKms, the environment overriding its members', () => {
    writeFileSync(file('server.json'), JSON.stringify({ signing: { certificateChainFile: 'rp.pem', awsKms: { keyId: 'alias/rp-signing', region: 'eu-central-1', endpoint: 'https://kms.example' } } }));
    const settings = loadServerSettings({ env: { AUTHZ_AWS_KMS_REGION: 'eu-west-1' }, configFile: file('server.json') });
    expect(settings.awsKms).toMatchObject({ keyId: 'alias/rp-signing', region: 'eu-west-1', endpoint: 'https://kms.example', certificateChain: [leaf.pem.trim()] });
  });
});
