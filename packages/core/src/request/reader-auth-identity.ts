import type { ReaderAuthOption } from '../config/reader-auth-input.js';
import type { SigningInput } from '../config/signing-input.js';
import { readerCertificateProblems } from '../crypto/reader-certificate.js';
import { READER_AUTH_ALGS, type ReaderAuthAlg, type ReaderAuthSigner } from '../crypto/reader-authentication.js';
import { ConfigError } from '../errors/config-error.js';
import { checkSigningInput, leafCertificateOf, loadSigningMaterial, type SigningMaterial } from './signing-material.js';

/** A checked `readerAuth` option: who signs and under which COSE label. */
export interface CheckedReaderAuth {
  alg: ReaderAuthAlg;
  /** `'signing'`: the instance's primary signing identity; else a dedicated reader identity. */
  identity: 'signing' | SigningInput;
  /** Where the identity was configured (messages of its later loading name it). */
  path: string;
}

const OPTION_KEYS = new Set(['identity', 'alg']);
const IDENTITY_KEYS = new Set(['privateKey', 'certificateChain', 'signer', 'timeoutMs']);
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const FIX =
  'use a certificate issued for mdoc reader authentication (by your reader CA; Apple issues them to verifiers it registers; ' +
  'for development generateDevSigningKey({ readerAuth: true }) of @vp-authorizer/keys, or `vp-authorizer keys --reader`), or leave readerAuth out';

/**
 * Checks an instance's `readerAuth` option at construction (`undefined`: no readerAuth): its form,
 * a dedicated identity as a signing identity (key form, chain order, key matching the leaf), and
 * the reader certificate's profile (mdoc reader EKU, digitalSignature). `primary` is the
 * instance's checked primary signing identity, used by `identity: 'signing'`.
 */
export function checkReaderAuth(option: ReaderAuthOption | undefined, primary: SigningInput, path: string, primaryPath: string): CheckedReaderAuth | undefined {
  if (option === undefined) return undefined;
  const raw: unknown = option === true ? {} : option;
  const fail = (at: string, message: string) => new ConfigError('Invalid readerAuth:', [{ path: at, message }]);
  if (!isRecord(raw)) throw fail(path, 'must be true or { identity?, alg? }');
  const unknown = Object.keys(raw).filter((key) => !OPTION_KEYS.has(key));
  if (unknown.length > 0) throw fail(path, `has unknown member(s) ${unknown.join(', ')}; it takes identity and alg`);
  if (raw.alg !== undefined && !Object.hasOwn(READER_AUTH_ALGS, raw.alg as string)) throw fail(`${path}.alg`, 'must be "ES256" (COSE -7) or "ESP256" (COSE -9)');
  const alg = (raw.alg as ReaderAuthAlg | undefined) ?? 'ES256';
  let identity: 'signing' | SigningInput;
  let identityPath: string;
  if (raw.identity === undefined || raw.identity === 'signing') {
    identity = 'signing';
    identityPath = primaryPath;
  } else {
    identityPath = `${path}.identity`;
    if (!isRecord(raw.identity)) throw fail(identityPath, 'must be "signing" or a reader identity { privateKey, certificateChain } or { signer, timeoutMs? }');
    const extra = Object.keys(raw.identity).filter((key) => !IDENTITY_KEYS.has(key));
    if (extra.length > 0) throw fail(identityPath, `has unknown member(s) ${extra.join(', ')}; a reader identity is { privateKey, certificateChain } or { signer, timeoutMs? }`);
    identity = checkSigningInput(raw.identity, identityPath);
  }
  const leaf = leafCertificateOf(identity === 'signing' ? primary : identity);
  const problems = readerCertificateProblems(new Uint8Array(leaf.raw));
  if (problems.length > 0) {
    const which = identity === 'signing' ? `the leaf certificate of ${primaryPath}, which readerAuth signs with,` : 'the reader certificate';
    throw new ConfigError(
      'Invalid readerAuth:',
      problems.map((problem) => ({ path: `${identityPath}.certificateChain.0`, message: `${which} ${problem}: ${FIX}` })),
    );
  }
  return { alg, identity, path: identityPath };
}

/** The material of a checked option's identity as what signs readerAuth (x5chain as DER). */
export async function loadReaderAuthSigner(checked: CheckedReaderAuth, primary: () => Promise<SigningMaterial>): Promise<ReaderAuthSigner> {
  const material = checked.identity === 'signing' ? await primary() : await loadSigningMaterial(checked.identity, checked.path);
  return { alg: checked.alg, x5chain: material.x5c.map((b64) => new Uint8Array(Buffer.from(b64, 'base64'))), sign: material.sign };
}
