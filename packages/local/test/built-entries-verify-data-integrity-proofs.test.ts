import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedTestdata } from '../src/__fixtures__/shared-testdata.js';

// The Data Integrity libraries are ES modules only; the package's CommonJS build must still load
// and use them. Checks the built package (`pnpm -r --filter './packages/**' run build` first).
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const VECTOR = sharedTestdata('w3c-di', 'vc-di-ecdsa', 'TestVectors', 'ecdsa-rdfc-2019-p384', 'employ', 'signedECDSAP384.json');

/** Verifies the vector (and a tampered copy) as a bare ldp_vc and prints the codes of the failed results. */
const script = (load: string) => `
${load}
const raw = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(VECTOR)}, 'utf8'));
const tampered = { ...raw, credentialSubject: { ...raw.credentialSubject, givenName: 'JANE' } };
const verifier = localVerifier({ trustAnchors: [] });
const input = (raw) => ({ authorizationId: 'a', query: { type: 'DCQL', dcql: { credentials: [] } }, presentations: [{ kind: 'ldp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'ldp_vc', raw }], nonce: 'n', audience: 'x', sessionTranscript: { kind: 'redirect', clientId: 'x', nonce: 'n', responseUri: 'https://v.example', jwkThumbprint: null }, holderBindingRequired: { vc: false }, didMethods: { methods: { key: { enabled: true } }, response: {} } });
const codes = (results) => results.filter((r) => r.error).map((r) => r.error.code);
Promise.all([raw, tampered].map((doc) => verifier.verify(input(doc), { signal: new AbortController().signal }).then(codes))).then((all) => console.log(JSON.stringify(all)));
`;

function run(args: string[], source: string) {
  const result = spawnSync(process.execPath, [...args, source], { cwd: join(dist(''), '..'), encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

describe('the built entries verify Data Integrity proofs', () => {
  it.each([
    ['CommonJS (require)', ['-e'], `const { localVerifier } = require(${JSON.stringify(dist('index.cjs'))});`],
    ['ES module (import)', ['--input-type=module', '-e'], `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); const { localVerifier } = await import(${JSON.stringify(dist('index.js'))});`],
  ])('%s: a W3C vector\'s proof verifies (only its issuer, not the key controller, fails) and a changed copy does not', (_name, args, load) => {
    expect(existsSync(dist('index.cjs')) && existsSync(dist('index.js')), 'build the packages first').toBe(true);
    const { status, stdout, stderr } = run(args, script(load));
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual([['proof.issuer_mismatch'], ['proof.signature_invalid']]);
  });
});
