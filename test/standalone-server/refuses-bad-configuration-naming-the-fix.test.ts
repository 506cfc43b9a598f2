// The built command refuses a configuration it cannot run with before it listens: exit code 1 and
// a message (no stack) naming the member or variable and the fix — a misspelt member with the
// closest known name, an unreadable or invalid file, a missing API key, an unmigrated PostgreSQL
// database (with the command and the switch that migrate it). Needs the packages built.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrlForTests } from '@vp-authorizer/testing';
import { runServerToExit, startServerProcess } from '../__fixtures__/server-process.js';

const API_KEY = 'refusal-test-key-0123456789';
let dir: string;
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-server-refusals-'));
});

describe('vp-authorizer-server refuses a bad configuration with exit code 1 and the fix', () => {
  it('a misspelt member of the file: "did you mean", with its path', async () => {
    const path = file('typo.json', { instance: { apiKeys: [API_KEY], config: { openid4vp: { redirectUri: 'https://rp.example/cb' } } } });
    const { code, stdout, stderr } = await runServerToExit(['--config', path], {});
    expect(code).toBe(1);
    expect(stderr).toContain('instance.config.openid4vp: unknown option "openid4vp": did you mean "openId4vp"?');
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack
    expect(stdout).toBe('');
  }, 30_000);

  it('a file that does not exist, or is not JSON (AUTHZ_CONFIG_FILE)', async () => {
    const missing = await runServerToExit([], { AUTHZ_CONFIG_FILE: join(dir, 'missing.json') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('pass an existing JSON file with --config or AUTHZ_CONFIG_FILE');
    const broken = await runServerToExit([], { AUTHZ_CONFIG_FILE: file('broken.json', '{"port": 8080,}') });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is not valid JSON');
  }, 30_000);

  it('no API key anywhere', async () => {
    const { code, stderr } = await runServerToExit([], { PORT: '0' });
    expect(code).toBe(1);
    expect(stderr).toContain('AUTHZ_API_KEY: is required (or instance.apiKeys in the configuration file)');
  }, 30_000);

  it('bad values, each naming the file member or the variable, never quoting the API key', async () => {
    const path = file('values.json', { trust: { issuerRootFiles: ['no-such-root.pem'] } });
    const { code, stderr } = await runServerToExit(['--config', path], { AUTHZ_API_KEY: 'short k', PORT: '80000' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT: must be a port number');
    expect(stderr).toContain(`trust.issuerRootFiles (${path}): cannot read "${join(dir, 'no-such-root.pem')}" (ENOENT)`);
    expect(stderr).toContain('AUTHZ_API_KEY: must be at least 8 characters');
    expect(stderr).not.toContain('short k');
  }, 30_000);

  it('an unknown command-line option, with the usage (exit code 2)', async () => {
    const { code, stderr } = await runServerToExit(['--konfig', 'x.json'], {});
    expect(code).toBe(2);
    expect(stderr).toContain('usage: vp-authorizer-server [--config <file.json>] [--migrate]');
  }, 30_000);
});

const postgresUrl = postgresUrlForTests('test/standalone-server/refuses-bad-configuration-naming-the-fix.test.ts');
describe.skipIf(postgresUrl === undefined)('vp-authorizer-server on PostgreSQL migrates only when asked', () => {
  const database = `vpa_server_${randomBytes(5).toString('hex')}`;
  const url = postgresUrl && Object.assign(new URL(postgresUrl), { pathname: `/${database}` }).toString();
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('refuses an unmigrated database, naming the migrate command and --migrate', async () => {
    const { code, stderr } = await runServerToExit([], { AUTHZ_API_KEY: API_KEY, PORT: '0', POSTGRES_URL: url! });
    expect(code).toBe(1);
    expect(stderr).toContain('vp-authorizer-postgres migrate');
    expect(stderr).toContain('--migrate (or AUTHZ_POSTGRES_MIGRATE=1)');
  }, 30_000);

  it('with --migrate applies the migrations (logged), is ready, and starts later without it', async () => {
    const first = await startServerProcess(['--migrate'], { AUTHZ_API_KEY: API_KEY, POSTGRES_URL: url! });
    expect(first.logLines().find((l) => l.event === 'store.migrated')).toMatchObject({ schema: 'public' });
    expect((await fetch(`${first.origin}/readyz`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    const second = await startServerProcess([], { AUTHZ_API_KEY: API_KEY, POSTGRES_URL: url! });
    expect(second.logLines().find((l) => l.event === 'server.listening')).toMatchObject({ store: 'postgres' });
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
