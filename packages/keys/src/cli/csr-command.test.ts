import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csrCommand, parsePkcs11Uri } from './csr-command.js';

const dir = mkdtempSync(join(tmpdir(), 'keys-csr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
};

describe('keys csr', () => {
  it('writes a PKCS#10 request that openssl req -verify accepts, with the subject and SAN an access CA needs', async () => {
    const key = join(dir, 'signing.key.pem');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const out = join(dir, 'rp.csr');
    const run = io();
    expect(await csrCommand(['--key', key, '--dns', 'rp.example', '--org', 'Example RP GmbH', '--org-id', 'LEIXG-529900T8BM49AURSDO55', '--country', 'DE', '--out', out], run.io)).toBe(0);
    const verified = execFileSync('openssl', ['req', '-verify', '-noout', '-in', out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    void verified; // exit status 0 is the verification; OpenSSL writes "verify OK" to stderr or stdout depending on its version
    const text = execFileSync('openssl', ['req', '-noout', '-text', '-in', out], { encoding: 'utf8' });
    expect(text).toMatch(/(organizationIdentifier|2\.5\.4\.97)\s*=\s*LEIXG-529900T8BM49AURSDO55/);
    expect(text).toMatch(/O\s*=\s*Example RP GmbH/);
    expect(text).toMatch(/CN\s*=\s*rp\.example/);
    expect(text).toContain('DNS:rp.example');
    expect(text).toContain('Digital Signature');
    expect(text).toContain('ecdsa-with-SHA256');
    expect(readFileSync(out, 'utf8')).toContain('-----BEGIN CERTIFICATE REQUEST-----');
  });

  it('refuses a key that is not P-256, and missing flags, naming what is wrong', async () => {
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const bad = io();
    expect(await csrCommand(['--key', rsa, '--dns', 'rp.example', '--org', 'O', '--org-id', 'LEIXG-1'], bad.io)).toBe(1);
    expect(bad.err.join('\n')).toContain('P-256');
    const missing = io();
    expect(await csrCommand(['--key', rsa, '--dns', 'rp.example'], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toContain('--org is required');
  });

  it('reads an RFC 7512 PKCS#11 URI', () => {
    expect(parsePkcs11Uri('pkcs11:token=rp%20signing;object=request-signing?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=file:/run/pin')).toEqual({
      token: 'rp signing',
      object: 'request-signing',
      modulePath: '/usr/lib/softhsm/libsofthsm2.so',
      pinSource: 'file:/run/pin',
    });
    expect(() => parsePkcs11Uri('pkcs11:token=rp')).toThrow('module-path');
  });
});
