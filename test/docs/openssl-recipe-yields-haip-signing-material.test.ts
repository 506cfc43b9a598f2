// The openssl recipe of docs/getting-started.md, run as written, produces signing material the
// library loads and a wallet accepts under HAIP (x509_hash client id, leaf-only x5c chaining to
// the root), with the private keys readable by their owner only.
import { spawnSync } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAuthorizer } from '@vp-authorizer/core';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestWallet, listenOnLoopback } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocProject, type DocProject } from './__fixtures__/doc-project.js';
import { codeBlocks } from './__fixtures__/markdown-files.js';

const recipe = codeBlocks('docs/getting-started.md').find((b) => b.name === 'openssl-recipe');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) console.warn(`\n${'='.repeat(80)}\n  OPENSSL RECIPE SKIPPED: openssl is not on PATH (apt-get install -y openssl)\n${'='.repeat(80)}\n`);

let project: DocProject;
let keys: string;
const read = (name: string) => readFileSync(join(keys, name), 'utf8');

describe.skipIf(!hasOpenssl)('the openssl recipe in docs/getting-started.md', () => {
  beforeAll(() => {
    expect(recipe, 'docs/getting-started.md has a block marked <!-- block: openssl-recipe -->').toBeDefined();
    project = createDocProject('openssl-recipe');
    const run = spawnSync('sh', ['-e', '-c', recipe!.code], { cwd: project.dir, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('signing.pem: OK');
    keys = join(project.dir, 'keys');
  });
  afterAll(() => project?.remove());

  it('writes a root CA and a HAIP signing certificate (P-256, dNSName, digitalSignature, not a CA)', () => {
    const root = new X509Certificate(read('root-ca.pem'));
    const leaf = new X509Certificate(read('signing.pem'));
    expect(root.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(root) && leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.checkIssued(leaf)).toBe(false);
    expect(leaf.subjectAltName).toBe('DNS:rp.example.com');
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    // keyUsage (2.5.29.15), critical, digitalSignature only.
    expect(leaf.raw.toString('hex')).toContain('0603551d0f0101ff040403020780');
  });

  it('leaves the private keys readable by their owner only', () => {
    expect(statSync(join(keys, 'root-ca.key.pem')).mode & 0o077).toBe(0);
    expect(statSync(join(keys, 'signing.key.pem')).mode & 0o077).toBe(0);
  });

  it('loads into an authorizer whose HAIP requests a wallet verifies against the root', async () => {
    let authorizer: ReturnType<typeof createAuthorizer> | undefined;
    const server = await listenOnLoopback((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const answer = await authorizer!.fetch(
          new Request(url, { method: req.method, headers: req.headers as Record<string, string>, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }),
        );
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    try {
      authorizer = createAuthorizer({
        publicBaseUrl: `${server.origin}/authz`,
        basePath: '/authz',
        instances: [
          {
            id: 'main',
            apiKeys: ['a-long-enough-api-key'],
            signing: { privateKey: read('signing.key.pem'), certificateChain: [read('signing.pem')], trustAnchor: read('root-ca.pem') },
            validator: localValidator(),
            verifier: localVerifier({ trustAnchors: [read('root-ca.pem')] }),
          },
        ],
      });
      const created = await authorizer.createAuthorization('main', {
        responseMode: 'direct_post.jwt',
        profile: 'haip',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
      });
      if (!('authorizeUrl' in created)) throw new Error('expected an authorizeUrl');
      const wallet = await createTestWallet();
      const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [read('root-ca.pem')] });
      const leafDer = new X509Certificate(read('signing.pem')).raw;
      expect(request.x5c).toEqual([leafDer.toString('base64')]);
      expect(request.clientId).toBe(`x509_hash:${createHash('sha256').update(leafDer).digest('base64url')}`);
    } finally {
      await authorizer?.close();
      await server.close();
    }
  });
});
