// `npx @vp-authorizer/keys keys` (the built bin): writes a root CA and a signing certificate an
// authorizer accepts under HAIP, private keys 0600, and never overwrites without --force.
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthorizer } from '@vp-authorizer/core';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/keys/package.json'), 'utf8')) as { bin: Record<string, string> };
const BIN = join(ROOT, 'packages/keys', Object.values(pkg.bin)[0]!);

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'vpa-keys-'));
  dirs.push(d);
  return d;
};
const keys = (...args: string[]) => spawnSync(process.execPath, [BIN, 'keys', ...args], { encoding: 'utf8' });
const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');

describe('vp-authorizer keys', () => {
  it('is the package bin, built with a node shebang', () => {
    expect(Object.keys(pkg.bin)).toEqual(['vp-authorizer']);
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('writes a root CA and a HAIP signing certificate (ES256, dNSName, digitalSignature, not a CA)', () => {
    const out = join(tempDir(), 'keys');
    const run = keys('--out', out, '--dns', 'rp.example.com', '--days', '90');
    expect(run.status, run.stderr).toBe(0);

    const root = new X509Certificate(read(out, 'root-ca.pem'));
    const leaf = new X509Certificate(read(out, 'signing.pem'));
    expect(root.ca).toBe(true);
    expect(root.checkIssued(root) && root.verify(root.publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(root) && leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.checkIssued(leaf)).toBe(false);
    expect(leaf.subjectAltName).toBe('DNS:rp.example.com');
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    const days = (Date.parse(leaf.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThan(91);
    // keyUsage (OID 2.5.29.15), critical, digitalSignature only: 06 03 55 1d 0f | 01 01 ff | 04 04 03 02 07 80.
    expect(leaf.raw.toString('hex')).toContain('0603551d0f0101ff0404030207' + '80');
    expect(root.raw.toString('hex')).toContain('0603551d0f0101ff040403020106'); // keyCertSign | cRLSign
    expect(run.stdout).toContain('x509_san_dns:rp.example.com');
    expect(run.stdout).not.toContain('PRIVATE KEY');
  });

  it('writes the private keys with mode 0600 and the certificates readable', () => {
    const out = join(tempDir(), 'keys');
    expect(keys('--out', out).status).toBe(0);
    const mode = (name: string) => statSync(join(out, name)).mode & 0o777;
    expect(mode('root-ca.key.pem')).toBe(0o600);
    expect(mode('signing.key.pem')).toBe(0o600);
    expect(mode('root-ca.pem')).toBe(0o644);
    expect(mode('signing.pem')).toBe(0o644);
  });

  it('loads into an authorizer whose HAIP authorizations carry the x509_hash client id of that certificate', async () => {
    const out = join(tempDir(), 'keys');
    expect(keys('--out', out, '--dns', 'verifier.test').status).toBe(0);
    const authorizer = createAuthorizer({
      publicBaseUrl: 'https://verifier.test/authz',
      instances: [
        {
          id: 'main',
          apiKeys: ['a-long-enough-api-key'],
          signing: { privateKey: read(out, 'signing.key.pem'), certificateChain: [read(out, 'signing.pem')], trustAnchor: read(out, 'root-ca.pem') },
          validator: localValidator(),
          verifier: localVerifier({ trustAnchors: [read(out, 'root-ca.pem')] }),
        },
      ],
    });
    try {
      const created = await authorizer.createAuthorization('main', {
        responseMode: 'direct_post.jwt',
        profile: 'haip',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
      });
      if (!('authorizeUrl' in created)) throw new Error('expected an authorizeUrl');
      const clientId = new URL(created.authorizeUrl).searchParams.get('client_id');
      const { createHash } = await import('node:crypto');
      const hash = createHash('sha256').update(new X509Certificate(read(out, 'signing.pem')).raw).digest('base64url');
      expect(clientId).toBe(`x509_hash:${hash}`);
    } finally {
      await authorizer.close();
    }
  });

  it('refuses to overwrite existing files without --force, and replaces them (still 0600) with it', () => {
    const out = tempDir();
    writeFileSync(join(out, 'signing.key.pem'), 'mine', { mode: 0o644 });
    const refused = keys('--out', out);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--force');
    expect(refused.stderr).toContain('signing.key.pem');
    expect(read(out, 'signing.key.pem')).toBe('mine');

    const forced = keys('--out', out, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(read(out, 'signing.key.pem')).toContain('-----BEGIN PRIVATE KEY-----');
    expect(statSync(join(out, 'signing.key.pem')).mode & 0o777).toBe(0o600);
  });

  it('never writes a key through a symbolic link: refused without --force, the link replaced (not followed) with it', () => {
    const out = tempDir();
    const elsewhere = tempDir();
    // A dangling link where the key is about to go: following it would create the attacker's file.
    symlinkSync(join(elsewhere, 'planted.pem'), join(out, 'signing.key.pem'));
    const refused = keys('--out', out);
    expect(refused.status).toBe(1);
    expect(existsSync(join(elsewhere, 'planted.pem'))).toBe(false);

    // With --force the link itself is replaced; its target (an existing file) is untouched.
    writeFileSync(join(elsewhere, 'victim.conf'), 'original');
    rmSync(join(out, 'signing.key.pem'));
    symlinkSync(join(elsewhere, 'victim.conf'), join(out, 'signing.key.pem'));
    const forced = keys('--out', out, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(elsewhere, 'victim.conf'), 'utf8')).toBe('original');
    expect(lstatSync(join(out, 'signing.key.pem')).isSymbolicLink()).toBe(false);
    expect(statSync(join(out, 'signing.key.pem')).mode & 0o777).toBe(0o600);
  });

  it('does not write a key into an existing file that another name still reaches (--force replaces the file, not its content)', () => {
    const out = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(out, 'root-ca.key.pem'), 'old', { mode: 0o644 });
    linkSync(join(out, 'root-ca.key.pem'), join(elsewhere, 'hard-link.pem'));
    expect(keys('--out', out, '--force').status).toBe(0);
    expect(readFileSync(join(elsewhere, 'hard-link.pem'), 'utf8')).toBe('old');
    expect(read(out, 'root-ca.key.pem')).toContain('-----BEGIN PRIVATE KEY-----');
    // No temporary file is left behind.
    expect(readdirSync(out).sort()).toEqual(['root-ca.key.pem', 'root-ca.pem', 'signing.key.pem', 'signing.pem']);
  });

  it('refuses an --out that is a symbolic link or that other users can write to, and creates a new one private', () => {
    const base = tempDir();
    const real = join(base, 'real');
    mkdirSync(real);
    symlinkSync(real, join(base, 'link'));
    const viaLink = keys('--out', join(base, 'link'));
    expect(viaLink.status).toBe(1);
    expect(viaLink.stderr).toContain('symbolic link');
    expect(readdirSync(real)).toEqual([]);

    const shared = join(base, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const open = keys('--out', shared);
    expect(open.status).toBe(1);
    expect(open.stderr).toContain('other users can write');
    expect(readdirSync(shared)).toEqual([]);

    const fresh = join(base, 'fresh', 'keys');
    expect(keys('--out', fresh).status).toBe(0);
    expect(statSync(fresh).mode & 0o077).toBe(0);
  });

  it('answers usage errors with exit code 2 and the usage text', () => {
    for (const args of [[], ['--out', tempDir(), '--dns', 'not a name'], ['--out', tempDir(), '--days', '0'], ['--out', tempDir(), '--bogus']]) {
      const run = keys(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: vp-authorizer keys');
    }
  });
});
