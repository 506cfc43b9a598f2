import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { deleteKeys, redisUrlForTests, testClient } from '@vp-authorizer/testing/redis';
import { type AnnexCGetRequest, checkAnnexCReaderAuth, postgresUrlForTests, receiveAnnexCRequest } from '@vp-authorizer/testing';
import pg from 'pg';
import { configFromEnv, EnvConfigError, instanceConfigFromEnv } from '../config-from-env.mjs';
import { startExample as startHono } from '../../hono-app/app.mjs';

const problemsOf = (env: Record<string, string>) => {
  try {
    configFromEnv(env, { defaultPort: 3001 });
  } catch (error) {
    expect(error).toBeInstanceOf(EnvConfigError);
    return (error as EnvConfigError).problems;
  }
  throw new Error('expected the environment to be refused');
};

let rootA: string;
let rootB: string;
beforeAll(async () => {
  rootA = (await generateDevSigningKey({ commonName: 'root A' })).rootCertificatePem;
  rootB = (await generateDevSigningKey({ commonName: 'root B' })).rootCertificatePem;
});

describe('configFromEnv', () => {
  it('with nothing set keeps the embedded defaults', () => {
    expect(configFromEnv({}, { defaultPort: 3001 })).toEqual({
      port: 3001,
      host: '127.0.0.1',
      publicBaseUrl: undefined,
      redirectUri: undefined,
      apiKey: undefined,
      issuerRoots: [],
      issuerDids: [],
      redisUrl: undefined,
      cors: { enabled: false },
      dataIntegrity: {},
    });
  });

  it('reads the Data Integrity settings of localVerifier: on/off, the accepted cryptosuites and context files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpa-contexts-'));
    const context = { '@context': { grade: 'https://vocab.example/grade' } };
    writeFileSync(join(dir, 'contexts.json'), JSON.stringify({ 'https://vocab.example/v1': context }));
    const config = configFromEnv({ DATA_INTEGRITY_ENABLED: 'true', DATA_INTEGRITY_CRYPTOSUITES: 'eddsa-rdfc-2022, ecdsa-rdfc-2019', DATA_INTEGRITY_CONTEXTS_FILE: join(dir, 'contexts.json') }, { defaultPort: 1 });
    expect(config.dataIntegrity).toEqual({ enabled: true, cryptosuites: ['eddsa-rdfc-2022', 'ecdsa-rdfc-2019'], contexts: { 'https://vocab.example/v1': context } });
    expect(problemsOf({ DATA_INTEGRITY_ENABLED: 'yes', DATA_INTEGRITY_CRYPTOSUITES: 'eddsa-rdfc-2022,rsa-2017', DATA_INTEGRITY_CONTEXTS_FILE: join(dir, 'missing.json') }).map((p) => p.variable)).toEqual([
      'DATA_INTEGRITY_ENABLED',
      'DATA_INTEGRITY_CRYPTOSUITES',
      'DATA_INTEGRITY_CONTEXTS_FILE',
    ]);
  });

  it("reads the Data Integrity document limits and canonicalization deadline within localVerifier's ranges, and refuses other values naming the variable and the range", async () => {
    const { DATA_INTEGRITY_LIMITS, localVerifier } = await import('@vp-authorizer/local');
    const largest = {
      DATA_INTEGRITY_MAX_DEPTH: '64',
      DATA_INTEGRITY_MAX_VALUES: '100000',
      DATA_INTEGRITY_MAX_ARRAY_LENGTH: '10000',
      DATA_INTEGRITY_MAX_BLANK_NODES: '10000',
      DATA_INTEGRITY_MAX_EMBEDDED_CONTEXTS: '10000',
      DATA_INTEGRITY_MAX_TERM_DEFINITIONS: '100000',
      DATA_INTEGRITY_CANONICALIZATION_TIMEOUT_MS: '10000',
    };
    const config = configFromEnv(largest, { defaultPort: 1 });
    expect(config.dataIntegrity).toEqual({ maxDepth: 64, maxValues: 100_000, maxArrayLength: 10_000, maxBlankNodes: 10_000, maxEmbeddedContexts: 10_000, maxTermDefinitions: 100_000, canonicalizationTimeoutMs: 10_000 });
    expect(Object.fromEntries(Object.entries(DATA_INTEGRITY_LIMITS).map(([name, { max }]) => [name, max]))).toEqual(config.dataIntegrity);
    // What the loader accepts, localVerifier accepts.
    expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { ...config.dataIntegrity, enabled: false } })).not.toThrow();
    expect(configFromEnv({ DATA_INTEGRITY_MAX_EMBEDDED_CONTEXTS: '1', DATA_INTEGRITY_MAX_TERM_DEFINITIONS: '8' }, { defaultPort: 1 }).dataIntegrity).toEqual({ maxEmbeddedContexts: 1, maxTermDefinitions: 8 });

    const problems = problemsOf({ DATA_INTEGRITY_MAX_DEPTH: '65', DATA_INTEGRITY_MAX_VALUES: '0', DATA_INTEGRITY_MAX_ARRAY_LENGTH: '1e3', DATA_INTEGRITY_MAX_BLANK_NODES: '-5', DATA_INTEGRITY_MAX_EMBEDDED_CONTEXTS: 'many', DATA_INTEGRITY_MAX_TERM_DEFINITIONS: '256.5', DATA_INTEGRITY_CANONICALIZATION_TIMEOUT_MS: '10001' });
    expect(problems.map((p) => p.variable)).toEqual(Object.keys(largest));
    expect(problems[0]!.message).toBe('must be a whole number from 1 to 64 (dataIntegrity.maxDepth; default 24), got "65"');
    expect(problems[4]!.message).toBe('must be a whole number from 1 to 10000 (dataIntegrity.maxEmbeddedContexts; default 32), got "many"');
    expect(problems[6]!.message).toContain('from 1 to 10000 (dataIntegrity.canonicalizationTimeoutMs; default 1000)');
  });

  it('reads issuer roots inline (one-line values with \\n escapes) and from several files, each holding several', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpa-roots-'));
    writeFileSync(join(dir, 'both.pem'), `${rootA}\n${rootB}`);
    writeFileSync(join(dir, 'b.pem'), rootB);
    const config = configFromEnv({ ISSUER_ROOT_PEM: rootA.trim().replace(/\n/g, '\\n'), ISSUER_ROOT_PEM_FILE: `${join(dir, 'both.pem')}, ${join(dir, 'b.pem')}` }, { defaultPort: 1 });
    expect(config.issuerRoots).toHaveLength(4);
    expect(config.issuerRoots[0]!.replace(/\s/g, '')).toBe(rootA.replace(/\s/g, ''));
  });

  it('reads trusted issuer DIDs from AUTHZ_TRUSTED_ISSUER_DIDS and names an entry that is not a DID', () => {
    const config = configFromEnv({ AUTHZ_TRUSTED_ISSUER_DIDS: ' did:web:issuer.example , did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' }, { defaultPort: 1 });
    expect(config.issuerDids).toEqual(['did:web:issuer.example', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK']);
    expect(problemsOf({ AUTHZ_TRUSTED_ISSUER_DIDS: 'did:web:issuer.example,https://issuer.example' })).toEqual([{ variable: 'AUTHZ_TRUSTED_ISSUER_DIDS', message: expect.stringContaining('"https://issuer.example" is not a DID') }]);
  });

  it('strips trailing slashes from PUBLIC_BASE_URL and takes CORS from EXPRESS_CORS_*', () => {
    const config = configFromEnv({ PUBLIC_BASE_URL: 'https://verifier.example/authz/', EXPRESS_CORS_ENABLED: '1', EXPRESS_CORS_ORIGIN: 'https://a.example, https://b.example' }, { defaultPort: 1 });
    expect(config.publicBaseUrl).toBe('https://verifier.example/authz');
    expect(config.cors).toEqual({ enabled: true, origin: ['https://a.example', 'https://b.example'] });
  });

  it('names each bad variable, all at once', () => {
    expect(
      problemsOf({
        PORT: '70000',
        PUBLIC_BASE_URL: 'https://verifier.example/authz?x=1',
        AUTHZ_REDIRECT_URI: 'mailto:rp@example.com',
        ISSUER_ROOT_PEM: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        ISSUER_ROOT_PEM_FILE: '/nonexistent/root.pem',
        REDIS_URL: 'localhost:6379',
        EXPRESS_CORS_ORIGIN: 'rp.example',
      }).map((p) => p.variable),
    ).toEqual(['PORT', 'PUBLIC_BASE_URL', 'AUTHZ_REDIRECT_URI', 'ISSUER_ROOT_PEM', 'ISSUER_ROOT_PEM_FILE', 'REDIS_URL', 'EXPRESS_CORS_ORIGIN']);
  });

  it('bounds the memory store per instance from AUTHZ_MEMORY_STORE_MAX_RECORDS / _MAX_BYTES, and names bad values', () => {
    expect(configFromEnv({ AUTHZ_MEMORY_STORE_MAX_RECORDS: '5000', AUTHZ_MEMORY_STORE_MAX_BYTES: '67108864' }, { defaultPort: 1 }).memoryStoreQuota).toEqual({
      maxRecordsPerInstance: 5000,
      maxBytesPerInstance: 67108864,
    });
    expect(problemsOf({ AUTHZ_MEMORY_STORE_MAX_RECORDS: '0', AUTHZ_MEMORY_STORE_MAX_BYTES: '64MB' })).toEqual([
      { variable: 'AUTHZ_MEMORY_STORE_MAX_RECORDS', message: expect.stringContaining('whole number') },
      { variable: 'AUTHZ_MEMORY_STORE_MAX_BYTES', message: expect.stringContaining('whole number') },
    ]);
    // The Redis store has no such bound: a setting that would do nothing is refused.
    expect(problemsOf({ AUTHZ_MEMORY_STORE_MAX_RECORDS: '10', REDIS_URL: 'redis://127.0.0.1:6379' }).map((p) => p.variable)).toEqual(['AUTHZ_MEMORY_STORE_MAX_RECORDS']);
  });

  it('reads the claim lease from AUTHZ_CLAIM_LEASE_MS and names values outside 100–60000 ms', () => {
    expect(configFromEnv({ AUTHZ_CLAIM_LEASE_MS: '3000' }, { defaultPort: 1 }).claimLeaseMs).toBe(3000);
    expect(configFromEnv({}, { defaultPort: 1 }).claimLeaseMs).toBeUndefined();
    expect(problemsOf({ AUTHZ_CLAIM_LEASE_MS: '50' })).toEqual([{ variable: 'AUTHZ_CLAIM_LEASE_MS', message: expect.stringContaining('100–60000') }]);
    expect(problemsOf({ AUTHZ_CLAIM_LEASE_MS: '5s' })).toEqual([{ variable: 'AUTHZ_CLAIM_LEASE_MS', message: expect.stringContaining('whole number') }]);
  });

  it('an example app past AUTHZ_MEMORY_STORE_MAX_RECORDS answers 429 with Retry-After', async () => {
    const example = await startHono({ port: 0, env: { AUTHZ_API_KEY: 'quota-example-key-01', AUTHZ_MEMORY_STORE_MAX_RECORDS: '1' } });
    try {
      const create = () =>
        fetch(`${example.origin}/authz/openid4/vp/v1_0/authorizations`, {
          method: 'POST',
          headers: { authorization: 'Bearer quota-example-key-01', 'content-type': 'application/json' },
          body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
        });
      expect((await create()).status).toBe(201);
      const refused = await create();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await example.close();
    }
  });

  it('reads the redirect allow-list and the DC API allowed origins (comma-separated) into the instance configuration', () => {
    const config = configFromEnv(
      {
        AUTHZ_REDIRECT_URI: 'https://rp.example/login/callback',
        AUTHZ_ALLOWED_REDIRECT_URIS: 'https://rp.example/login/callback, https://shop.example',
        AUTHZ_DC_API_ALLOWED_ORIGINS: 'https://rp.example,android:apk-key-hash:abc_-123',
      },
      { defaultPort: 1 },
    );
    expect(instanceConfigFromEnv(config)).toEqual({
      openId4vp: {
        redirectUri: 'https://rp.example/login/callback',
        allowedRedirectUris: ['https://rp.example/login/callback', 'https://shop.example'],
        dcApi: { allowedOrigins: ['https://rp.example', 'android:apk-key-hash:abc_-123'] },
      },
    });
    // "none": no default origins, so unsigned DC API requests must name expectedOrigins.
    expect(instanceConfigFromEnv(configFromEnv({ AUTHZ_DC_API_ALLOWED_ORIGINS: 'none' }, { defaultPort: 1 }))).toEqual({ openId4vp: { dcApi: { allowedOrigins: [] } } });
  });

  it('names bad allow-list and origin entries, and a redirect URI its own allow-list refuses, never quoting credentials', () => {
    const problems = problemsOf({
      AUTHZ_DC_API_ALLOWED_ORIGINS: 'https://rp.example/, *',
      AUTHZ_ALLOWED_REDIRECT_URIS: 'https://user:secret-pw@rp.example/cb, https://RP.example, ftp://rp.example/x',
    });
    expect(problems.map((p) => p.variable)).toEqual(['AUTHZ_DC_API_ALLOWED_ORIGINS', 'AUTHZ_DC_API_ALLOWED_ORIGINS', 'AUTHZ_ALLOWED_REDIRECT_URIS', 'AUTHZ_ALLOWED_REDIRECT_URIS', 'AUTHZ_ALLOWED_REDIRECT_URIS']);
    expect(JSON.stringify(problems)).not.toContain('secret-pw');
    expect(problems[3]!.message).toContain('https://rp.example');
    expect(problemsOf({ AUTHZ_REDIRECT_URI: 'https://evil.example/cb', AUTHZ_ALLOWED_REDIRECT_URIS: 'https://rp.example' })).toEqual([
      { variable: 'AUTHZ_REDIRECT_URI', message: expect.stringContaining('AUTHZ_ALLOWED_REDIRECT_URIS') },
    ]);
  });

  it('an example app applies both: a redirect outside the list and a DC API response from another origin are refused', async () => {
    const key = 'allow-list-example-key-01';
    const example = await startHono({ port: 0, env: { AUTHZ_API_KEY: key, AUTHZ_ALLOWED_REDIRECT_URIS: 'https://rp.example', AUTHZ_DC_API_ALLOWED_ORIGINS: 'https://shop.example' } });
    try {
      const call = (path: string, body: unknown) =>
        fetch(`${example.origin}/authz/openid4/vp/v1_0${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const query = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } };
      expect((await call('/authorizations', { responseMode: 'direct_post', query, redirectUri: 'https://rp.example/done' })).status).toBe(201);
      const evil = await call('/authorizations', { responseMode: 'direct_post', query, redirectUri: 'https://evil.example/' });
      expect(await evil.json()).toMatchObject({ type: 'request.redirect_uri_not_allowed' });

      const created = await call('/authorizations', { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query });
      expect(created.status).toBe(201);
      const { authorizationId } = (await created.json()) as { authorizationId: string };
      const answer = (origin: string) => call(`/${authorizationId}/dc_api`, { origin, digitalCredentialGetResponse: { vp_token: { pid: ['not-a-presentation'] } } });
      expect(await (await answer(example.origin)).json()).toMatchObject({ type: 'authorization.origin_mismatch' });
      expect(await (await answer('https://shop.example')).json()).toEqual({ status: 'rejected' });
    } finally {
      await example.close();
    }
  });

  it('reads readerAuth from AUTHZ_READER_AUTH or a dedicated reader key and chain (AUTHZ_READER_AUTH_*_FILE), with its COSE label, and names bad combinations', async () => {
    expect(configFromEnv({}, { defaultPort: 3001 }).readerAuth).toBeUndefined();
    expect(configFromEnv({ AUTHZ_READER_AUTH: 'signing', AUTHZ_READER_AUTH_ALG: 'ESP256' }, { defaultPort: 3001 }).readerAuth).toEqual({ identity: 'signing', alg: 'ESP256' });
    const reader = await generateDevSigningKey({ readerAuth: true });
    const dir = mkdtempSync(join(tmpdir(), 'reader-auth-'));
    writeFileSync(join(dir, 'reader.key.pem'), (await import('node:crypto')).createPrivateKey({ key: reader.signing.privateKey as never, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string);
    writeFileSync(join(dir, 'reader.pem'), reader.leafCertificatePem);
    const dedicated = configFromEnv({ AUTHZ_READER_AUTH_KEY_FILE: join(dir, 'reader.key.pem'), AUTHZ_READER_AUTH_CERT_CHAIN_FILE: join(dir, 'reader.pem') }, { defaultPort: 3001 }).readerAuth;
    expect(dedicated?.identity).toEqual({ privateKey: expect.stringContaining('PRIVATE KEY'), certificateChain: [reader.leafCertificatePem.trim()] });
    expect(problemsOf({ AUTHZ_READER_AUTH: 'yes', AUTHZ_READER_AUTH_ALG: 'ES384' }).map((p) => p.variable)).toEqual(['AUTHZ_READER_AUTH', 'AUTHZ_READER_AUTH_ALG']);
    expect(problemsOf({ AUTHZ_READER_AUTH_KEY_FILE: join(dir, 'reader.key.pem') })).toEqual([{ variable: 'AUTHZ_READER_AUTH_CERT_CHAIN_FILE', message: expect.stringContaining('is required with the other') }]);
    expect(problemsOf({ AUTHZ_READER_AUTH_ALG: 'ES256' })).toEqual([{ variable: 'AUTHZ_READER_AUTH_ALG', message: expect.stringContaining('needs AUTHZ_READER_AUTH=signing') }]);
  });

  it('an example app with AUTHZ_READER_AUTH=signing signs the DocRequests of org-iso-mdoc requests with readerAuth', async () => {
    const key = 'reader-auth-example-key-01';
    const example = await startHono({ port: 0, env: { AUTHZ_API_KEY: key, AUTHZ_READER_AUTH: 'signing', AUTHZ_DC_API_ALLOWED_ORIGINS: 'https://shop.example' } });
    try {
      const created = await fetch(`${example.origin}/authz/openid4/vp/v1_0/authorizations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'dc_api', protocol: 'org-iso-mdoc', query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'] }] }] } } }),
      });
      expect(created.status).toBe(201);
      const { digitalCredentialGetRequest } = (await created.json()) as { digitalCredentialGetRequest: AnnexCGetRequest };
      const [checked] = await checkAnnexCReaderAuth(receiveAnnexCRequest(digitalCredentialGetRequest), digitalCredentialGetRequest.data.encryptionInfo, 'https://shop.example', { requireReaderAuth: true });
      expect(checked).toContain('-----BEGIN CERTIFICATE-----');
    } finally {
      await example.close();
    }
  });

  it('reads the retention of disclosed data (AUTHZ_RETENTION_*, milliseconds) into the instance configuration, and names bad values', () => {
    const config = configFromEnv({ AUTHZ_RETENTION_AFTER_TERMINAL: '3600000', AUTHZ_RETENTION_AFTER_READ: '0', AUTHZ_RETENTION_MODE: 'delete' }, { defaultPort: 1 });
    expect(instanceConfigFromEnv(config)).toEqual({ openId4vp: { dataRetention: { afterTerminal: 3_600_000, afterRead: 0, mode: 'delete' } } });
    expect(instanceConfigFromEnv(configFromEnv({}, { defaultPort: 1 }))).toEqual({});
    const problems = problemsOf({ AUTHZ_RETENTION_AFTER_TERMINAL: '60000', AUTHZ_RETENTION_AFTER_READ: '1h', AUTHZ_RETENTION_MODE: 'shred' });
    expect(problems.map((p) => p.variable)).toEqual(['AUTHZ_RETENTION_AFTER_TERMINAL', 'AUTHZ_RETENTION_AFTER_READ', 'AUTHZ_RETENTION_MODE']);
    expect(problems[0]!.message).toContain('from 300000');
  });

  it('an example app serves the erase route: 409 before an outcome, 404 for an unknown id', async () => {
    const key = 'retention-example-key-001';
    const example = await startHono({ port: 0, env: { AUTHZ_API_KEY: key, AUTHZ_RETENTION_AFTER_TERMINAL: '300000', AUTHZ_RETENTION_MODE: 'anonymize' } });
    try {
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${example.origin}/authz/openid4/vp/v1_0${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const created = await call('POST', '/authorizations', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } });
      const { authorizationId } = (await created.json()) as { authorizationId: string };
      const pending = await call('DELETE', `/authorizations/${authorizationId}/personal-data`);
      expect([pending.status, ((await pending.json()) as { type: string }).type]).toEqual([409, 'authorization.not_finished']);
      expect((await call('DELETE', '/authorizations/AAAAAAAAAAAAAAAAAAAAAA/personal-data')).status).toBe(404);
    } finally {
      await example.close();
    }
  });

  it('describes a bad API key without quoting it', () => {
    const key = 'bad key!';
    const problems = problemsOf({ AUTHZ_API_KEY: key });
    expect(problems).toEqual([{ variable: 'AUTHZ_API_KEY', message: expect.stringContaining('white space') }]);
    expect(JSON.stringify(problems)).not.toContain(key);
  });
});

const redisUrl = redisUrlForTests('examples/shared/test/config-from-env.test.ts');
describe.skipIf(!redisUrl)('REDIS_URL', () => {
  const client = redisUrl ? testClient(redisUrl) : undefined;
  afterAll(async () => {
    if (client) {
      await deleteKeys(client, 'vpa:');
      client.disconnect();
    }
  });

  it('puts the example authorizer on the Redis store', async () => {
    const example = await startHono({ port: 0, env: { REDIS_URL: redisUrl!, AUTHZ_API_KEY: 'redis-example-key-01' } });
    try {
      const res = await fetch(`${example.origin}/authz/openid4/vp/v1_0/authorizations`, {
        method: 'POST',
        headers: { authorization: 'Bearer redis-example-key-01', 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
      });
      expect(res.status).toBe(201);
      const { authorizationId } = (await res.json()) as { authorizationId: string };
      expect(await client!.exists(`vpa:{a:main:${authorizationId}}`)).toBe(1);
    } finally {
      await example.close();
    }
  });
});

describe('POSTGRES_URL (refusals)', () => {
  it('refuses a URL that is not postgres://, without quoting it, and refuses it together with REDIS_URL or the memory-store bounds', () => {
    const bad = problemsOf({ POSTGRES_URL: 'mysql://user:secret@db/app' });
    expect(bad).toEqual([{ variable: 'POSTGRES_URL', message: 'must be a postgres:// or postgresql:// URL' }]);
    expect(problemsOf({ POSTGRES_URL: 'postgres://127.0.0.1/app', REDIS_URL: 'redis://127.0.0.1:6379' }).map((p) => p.variable)).toEqual(['POSTGRES_URL']);
    expect(problemsOf({ POSTGRES_URL: 'postgres://127.0.0.1/app', AUTHZ_MEMORY_STORE_MAX_BYTES: '1000' })).toEqual([
      { variable: 'AUTHZ_MEMORY_STORE_MAX_BYTES', message: 'bounds the memory store, and POSTGRES_URL selects the Postgres store: unset one of them' },
    ]);
    expect(configFromEnv({ POSTGRES_URL: 'postgresql://app@127.0.0.1:5432/app' }, { defaultPort: 1 }).postgresUrl).toBe('postgresql://app@127.0.0.1:5432/app');
  });
});

const postgresUrl = postgresUrlForTests('examples/shared/test/config-from-env.test.ts');
describe.skipIf(!postgresUrl)('POSTGRES_URL', () => {
  it('migrates the database at start (logged) and puts the example authorizer on the Postgres store', async () => {
    const logged: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.join(' '));
    let example: Awaited<ReturnType<typeof startHono>>;
    try {
      example = await startHono({ port: 0, env: { POSTGRES_URL: postgresUrl!, AUTHZ_API_KEY: 'postgres-example-key-01' } });
    } finally {
      console.log = log;
    }
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      expect(logged.some((line) => /^\[store\] PostgreSQL schema public: (applied migration 1, 2|up to date) \(version 2\)$/.test(line)), logged.join('\n')).toBe(true);
      const res = await fetch(`${example.origin}/authz/openid4/vp/v1_0/authorizations`, {
        method: 'POST',
        headers: { authorization: 'Bearer postgres-example-key-01', 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
      });
      expect(res.status).toBe(201);
      const { authorizationId } = (await res.json()) as { authorizationId: string };
      const row = await admin.query('SELECT status FROM public.vpa_authorizations WHERE instance_id = $1 AND id = $2', ['main', authorizationId]);
      expect(row.rows).toEqual([{ status: 'created' }]);
    } finally {
      await example.close();
      await admin.query('DELETE FROM public.vpa_authorizations WHERE instance_id = $1', ['main']);
      await admin.end();
    }
  });
});
