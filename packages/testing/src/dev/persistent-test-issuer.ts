import { createPrivateKey } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTestCa, testCaFromPem } from '../wallet/test-ca.js';
import { type TestIssuer, createTestIssuer } from '../wallet/test-issuer.js';

/** The files of a saved test issuer. The root certificate is what authorizers trust. */
export const TEST_ISSUER_FILES = {
  rootCertificate: 'issuer-root-ca.pem',
  rootKey: 'issuer-root-ca.key.pem',
} as const;

const ROOT_SUBJECT = 'CN=vp-authorizer development issuer root CA,C=UT';
const ROOT_DAYS = 3 * 365;

/** Where a saved test issuer's files are. */
export interface SavedTestIssuer {
  dir: string;
  /** The root certificate (PEM) to trust: `ISSUER_ROOT_PEM_FILE`, `localValidator({ trustedIssuers })`, `localVerifier({ trustAnchors })`. */
  rootCertificatePath: string;
  rootKeyPath: string;
}

/**
 * Makes a test issuer root (P-256, valid three years) and saves it in `dir`: its certificate, and
 * its private key readable by the owner only. A development tool: a wallet made with
 * {@link loadTestIssuer} presents credentials any authorizer trusting this root accepts, across
 * restarts. Refuses to replace existing files unless `force`.
 */
export async function saveTestIssuer(dir: string, { force = false }: { force?: boolean } = {}): Promise<SavedTestIssuer> {
  const saved = paths(dir);
  const existing = [saved.rootCertificatePath, saved.rootKeyPath].filter((p) => lstatSync(p, { throwIfNoEntry: false }));
  if (existing.length > 0 && !force) throw new Error(`a test issuer is already saved there (${existing.join(', ')}); pass force (--force) to replace it`);
  const ca = await createTestCa(ROOT_SUBJECT, { pathLength: 0, notAfter: new Date(Date.now() + ROOT_DAYS * 86_400_000) });
  const keyPem = createPrivateKey({ key: ca.privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
  mkdirSync(saved.dir, { recursive: true, mode: 0o700 });
  // The key first and 0600 from its creation; `wx` (without force) never writes into a file that appeared meanwhile.
  writeFileSync(saved.rootKeyPath, keyPem, { mode: 0o600, flag: force ? 'w' : 'wx' });
  writeFileSync(saved.rootCertificatePath, `${ca.pem.trimEnd()}\n`, { mode: 0o644, flag: force ? 'w' : 'wx' });
  return saved;
}

/**
 * The test issuer saved in `dir` by {@link saveTestIssuer}: its root from the files, and a fresh
 * issuer certificate under it (credentials carry it in `x5c`; verifiers trust the root).
 */
export async function loadTestIssuer(dir: string): Promise<TestIssuer> {
  const saved = paths(dir);
  let certificatePem: string;
  let keyPem: string;
  try {
    certificatePem = readFileSync(saved.rootCertificatePath, 'utf8');
    keyPem = readFileSync(saved.rootKeyPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `no test issuer is saved in ${saved.dir}: run \`vp-authorizer issuer init --dir ${dir}\` first`
        : `cannot read the test issuer in ${saved.dir} (${code ?? String(error)})`,
    );
  }
  return createTestIssuer({ ca: await testCaFromPem(certificatePem, keyPem), commonName: 'vp-authorizer development issuer' });
}

function paths(dir: string): SavedTestIssuer {
  const at = resolve(dir);
  return { dir: at, rootCertificatePath: join(at, TEST_ISSUER_FILES.rootCertificate), rootKeyPath: join(at, TEST_ISSUER_FILES.rootKey) };
}
