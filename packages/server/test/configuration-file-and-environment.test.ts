// The configuration file is the environment's settings written as JSON, plus the hosted API's
// instance configuration; the environment overrides it member by member (lists of trust are
// joined, the store is replaced as a whole), and mistakes name the member or variable to fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { EnvConfigError, loadServerSettings, mergeInstanceConfig, instanceConfigFromEnv } from '@vp-authorizer/server';

let dir: string;
let rootA: string;
let rootB: string;
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const refusal = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the settings to be refused');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-server-config-'));
  rootA = (await generateDevSigningKey({ commonName: 'root A' })).rootCertificatePem;
  rootB = (await generateDevSigningKey({ commonName: 'root B' })).rootCertificatePem;
  write('root-a.pem', rootA);
  write('root-b.pem', rootB);
});

describe('a configuration file', () => {
  it('sets what the environment can set, paths relative to the file, plus the instance, its API keys and its configuration objects', () => {
    const file = write('full.json', {
      port: 9000,
      host: '0.0.0.0',
      publicBaseUrl: 'https://verifier.example/authz/',
      shutdownTimeoutMs: 2500,
      logLevel: 'warn',
      instance: { id: 'rp-1', apiKeys: ['key-one-0123456789', 'key-two-0123456789'], config: { cors: { enabled: true, origin: ['https://rp.example'] }, openId4vp: { redirectUri: 'https://rp.example/cb', expiresAfter: 120000 } } },
      trust: { issuerRootFiles: ['root-a.pem'], issuerDids: ['did:web:issuer.example'] },
      store: { type: 'memory', maxRecordsPerInstance: 500 },
    });
    const settings = loadServerSettings({ env: {}, configFile: file });
    expect(settings).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      publicBaseUrl: 'https://verifier.example/authz',
      shutdownTimeoutMs: 2500,
      logLevel: 'warn',
      instanceId: 'rp-1',
      apiKeys: ['key-one-0123456789', 'key-two-0123456789'],
      issuerRoots: [rootA.trim()],
      issuerDids: ['did:web:issuer.example'],
      memoryStoreQuota: { maxRecordsPerInstance: 500 },
      instanceConfig: { cors: { enabled: true, origin: ['https://rp.example'] }, openId4vp: { redirectUri: 'https://rp.example/cb', expiresAfter: 120000 } },
      configFile: file,
    });
  });

  it('is overridden by the environment: scalars replaced, issuer roots and DIDs joined, openId4vp members replaced one by one', () => {
    const file = write('override.json', {
      port: 9000,
      instance: { apiKeys: ['file-key-0123456789'], config: { openId4vp: { redirectUri: 'https://rp.example/cb', expiresAfter: 120000 } } },
      trust: { issuerRootFiles: ['root-a.pem'], issuerDids: ['did:web:a.example'] },
    });
    const settings = loadServerSettings({
      env: { AUTHZ_CONFIG_FILE: file, PORT: '9100', AUTHZ_API_KEY: 'env-key-0123456789', ISSUER_ROOT_PEM_FILE: join(dir, 'root-b.pem'), AUTHZ_TRUSTED_ISSUER_DIDS: 'did:web:b.example', AUTHZ_REDIRECT_URI: 'https://rp.example/other' },
    });
    expect(settings.port).toBe(9100);
    expect(settings.apiKey).toBe('env-key-0123456789');
    expect(settings.issuerRoots).toEqual([rootA.trim(), rootB.trim()]);
    expect(settings.issuerDids).toEqual(['did:web:a.example', 'did:web:b.example']);
    expect(mergeInstanceConfig(settings.instanceConfig, instanceConfigFromEnv(settings))).toEqual({ openId4vp: { redirectUri: 'https://rp.example/other', expiresAfter: 120000 } });
  });

  it('has its store replaced as a whole by a store variable of the environment', () => {
    const file = write('store.json', { store: { type: 'postgres', url: 'postgres://app@127.0.0.1/app', migrate: true } });
    const settings = loadServerSettings({ env: { REDIS_URL: 'redis://127.0.0.1:6379' }, configFile: file });
    expect(settings).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379', postgresUrl: undefined, postgresMigrate: undefined });
    expect(loadServerSettings({ env: {}, configFile: file })).toMatchObject({ postgresUrl: 'postgres://app@127.0.0.1/app', postgresMigrate: true });
  });

  it('takes CORS from EXPRESS_CORS_* in the environment over its own, allowing the Authorization header', () => {
    const file = write('cors.json', { instance: { config: { cors: { enabled: false } } } });
    expect(loadServerSettings({ env: { EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: 'https://rp.example' }, configFile: file }).instanceConfig).toEqual({
      cors: { enabled: true, origin: ['https://rp.example'], allowHeaders: ['Authorization'] },
    });
  });
});

describe('mistakes in a configuration file', () => {
  it('an unknown member is refused with the closest known name, at the top and inside the instance configuration', () => {
    const file = write('typos.json', { publicBaseURL: 'https://x.example', instance: { config: { openid4vp: { redirectUri: 'https://rp.example/cb' } } } });
    const error = refusal(() => loadServerSettings({ env: {}, configFile: file }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`configuration file ${file}`);
    expect(error.message).toContain('publicBaseURL: unknown option "publicBaseURL": did you mean "publicBaseUrl"?');
    expect(error.message).toContain('instance.config.openid4vp: unknown option "openid4vp": did you mean "openId4vp"?');
  });

  it("sets localVerifier's Data Integrity limits, and names the member of a value out of their range", () => {
    const file = write('data-integrity-limits.json', { dataIntegrity: { maxDepth: 12, maxValues: 500, maxArrayLength: 64, maxBlankNodes: 32, maxEmbeddedContexts: 4, maxTermDefinitions: 64, canonicalizationTimeoutMs: 250 } });
    expect(loadServerSettings({ env: { DATA_INTEGRITY_MAX_DEPTH: '16' }, configFile: file }).dataIntegrity).toEqual({ maxDepth: 16, maxValues: 500, maxArrayLength: 64, maxBlankNodes: 32, maxEmbeddedContexts: 4, maxTermDefinitions: 64, canonicalizationTimeoutMs: 250 });
    const tooLarge = write('data-integrity-too-large.json', { dataIntegrity: { maxEmbeddedContexts: 20000 } });
    const error = refusal(() => loadServerSettings({ env: {}, configFile: tooLarge }));
    expect((error as EnvConfigError).problems).toEqual([{ variable: `dataIntegrity.maxEmbeddedContexts (${tooLarge})`, message: 'must be a whole number from 1 to 10000 (dataIntegrity.maxEmbeddedContexts; default 32), got "20000"' }]);
  });

  it('a value the loader refuses names the file member it came from; one from the environment names its variable', () => {
    const file = write('bad-values.json', { trust: { issuerRootFiles: ['missing.pem'] } });
    const error = refusal(() => loadServerSettings({ env: { PORT: 'eighty' }, configFile: file }));
    expect(error).toBeInstanceOf(EnvConfigError);
    const problems = (error as EnvConfigError).problems;
    expect(problems.map((p) => p.variable)).toEqual(['PORT', `trust.issuerRootFiles (${file})`]);
    expect(problems[1]!.message).toContain(join(dir, 'missing.pem'));
  });

  it('a file that is missing, not JSON or not an object is refused saying so', () => {
    expect(refusal(() => loadServerSettings({ env: {}, configFile: join(dir, 'nope.json') })).message).toMatch(/Cannot read the configuration file .*nope\.json \(ENOENT\): pass an existing JSON file/);
    expect(refusal(() => loadServerSettings({ env: {}, configFile: write('broken.json', '{ "port": 80, }') })).message).toContain('is not valid JSON');
    expect(refusal(() => loadServerSettings({ env: { AUTHZ_CONFIG_FILE: write('array.json', []) } })).message).toContain('must hold a JSON object');
  });

  it('a wrong type is refused with its path', () => {
    const error = refusal(() => loadServerSettings({ env: {}, configFile: write('types.json', { port: '8080', store: { type: 'mongo' } }) }));
    expect(error.message).toContain('port:');
    expect(error.message).toContain('store.type:');
  });
});

describe('the configuration file documented in docs/standalone-server.md', () => {
  it('is accepted as written, every member known and of the right type', async () => {
    const { readFileSync } = await import('node:fs');
    const page = readFileSync(new URL('../../../docs/standalone-server.md', import.meta.url), 'utf8');
    const block = page.slice(page.indexOf('## The configuration file')).match(/```json\n([\s\S]*?)```/)![1]!;
    const { readConfigFile } = await import('@vp-authorizer/server');
    const loaded = readConfigFile(write('documented.json', block));
    expect(loaded.variables).toMatchObject({ PORT: '8080', REDIS_URL: 'redis://127.0.0.1:6379', ISSUER_ROOT_PEM_FILE: `${join(dir, 'pid-root.pem')},${join(dir, 'mdl-root.pem')}` });
    expect(loaded.instanceConfig).toMatchObject({ openId4vp: { redirectUri: 'https://rp.example/login/callback' } });
  });
});

describe('AUTHZ_SIGNING_KEY_FILE', () => {
  it('reads a P-256 PEM key with its chain, and refuses another kind of key, a missing chain, or a token as well, never quoting the key', async () => {
    const { generateKeyPairSync, createPrivateKey } = await import('node:crypto');
    const dev = await generateDevSigningKey({ commonName: 'file key' });
    const pem = createPrivateKey({ key: dev.signing.privateKey as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
    const keyFile = write('key.pem', pem);
    const chainFile = write('chain.pem', dev.signing.certificateChain.join('\n'));
    const settings = loadServerSettings({ env: { AUTHZ_SIGNING_KEY_FILE: keyFile, AUTHZ_SIGNING_CERT_CHAIN_FILE: chainFile } });
    expect(settings.signingKey).toEqual({ privateKey: pem, certificateChain: [dev.signing.certificateChain[0]!.trim()] });

    const edKey = write('ed.pem', generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const error = refusal(() => loadServerSettings({ env: { AUTHZ_SIGNING_KEY_FILE: edKey } })) as EnvConfigError;
    expect(error.problems).toEqual([
      { variable: 'AUTHZ_SIGNING_KEY_FILE', message: `${edKey} must hold a P-256 key (ES256), it holds another kind of key` },
      { variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: "is required with AUTHZ_SIGNING_KEY_FILE (the key's certificate, leaf first, without the root)" },
    ]);
    const both = refusal(() => loadServerSettings({ env: { AUTHZ_SIGNING_KEY_FILE: keyFile, AUTHZ_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so' } })) as EnvConfigError;
    expect(both.problems.map((p) => p.variable)).toContain('AUTHZ_SIGNING_KEY_FILE');
    expect(both.message).not.toContain(pem.split('\n')[1]!);
  });
});

describe('readerAuth in the configuration file (ISO/IEC 18013-7 Annex C ReaderAuth)', () => {
  it('takes a reader key and its chain (paths relative to the file) or the signing identity, with alg; the environment overrides member by member', async () => {
    const { createPrivateKey } = await import('node:crypto');
    const reader = await generateDevSigningKey({ commonName: 'reader', readerAuth: true });
    const pem = createPrivateKey({ key: reader.signing.privateKey as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
    write('reader-key.pem', pem);
    write('reader-chain.pem', reader.signing.certificateChain.join('\n'));
    const dedicated = write('reader-file.json', { readerAuth: { keyFile: 'reader-key.pem', certificateChainFile: 'reader-chain.pem', alg: 'ESP256' } });
    expect(loadServerSettings({ env: {}, configFile: dedicated }).readerAuth).toEqual({ identity: { privateKey: pem, certificateChain: [reader.signing.certificateChain[0]!.trim()] }, alg: 'ESP256' });

    const signing = write('reader-signing.json', { readerAuth: { identity: 'signing', alg: 'ES256' } });
    expect(loadServerSettings({ env: {}, configFile: signing }).readerAuth).toEqual({ identity: 'signing', alg: 'ES256' });
    // The environment's alg replaces the file's; the file's identity stays.
    expect(loadServerSettings({ env: { AUTHZ_READER_AUTH_ALG: 'ESP256' }, configFile: signing }).readerAuth).toEqual({ identity: 'signing', alg: 'ESP256' });
    // The environment's reader key files replace the file's, one variable each.
    const otherChain = write('other-chain.pem', reader.signing.certificateChain.join('\n'));
    expect(loadServerSettings({ env: { AUTHZ_READER_AUTH_CERT_CHAIN_FILE: otherChain }, configFile: write('reader-missing-chain.json', { readerAuth: { keyFile: 'reader-key.pem', certificateChainFile: 'gone.pem' } }) }).readerAuth).toMatchObject({ identity: { privateKey: pem } });
  });

  it('refuses an unknown member with the closest name, a value outside its choices, and a missing file naming its member', () => {
    const typo = refusal(() => loadServerSettings({ env: {}, configFile: write('reader-typo.json', { readerAuth: { keyfile: 'reader-key.pem' }, readerauth: {} }) }));
    expect(typo).toBeInstanceOf(ConfigError);
    expect(typo.message).toContain('readerAuth.keyfile: unknown option "keyfile": did you mean "keyFile"?');
    expect(typo.message).toContain('readerauth: unknown option "readerauth": did you mean "readerAuth"?');
    const wrong = refusal(() => loadServerSettings({ env: {}, configFile: write('reader-wrong.json', { readerAuth: { identity: 'reader', alg: 'EdDSA' } }) }));
    expect(wrong.message).toContain('readerAuth.identity:');
    expect(wrong.message).toContain('readerAuth.alg:');
    const file = write('reader-gone.json', { readerAuth: { keyFile: 'gone-key.pem', certificateChainFile: 'reader-chain.pem' } });
    const missing = refusal(() => loadServerSettings({ env: {}, configFile: file })) as EnvConfigError;
    expect(missing).toBeInstanceOf(EnvConfigError);
    expect(missing.problems.map((p) => p.variable)).toEqual([`readerAuth.keyFile (${file})`]);
    expect(missing.problems[0]!.message).toContain(join(dir, 'gone-key.pem'));
  });
});
