import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { issueSigningChain } from '../issue-signing-chain.js';
import { csrCommand } from './csr-command.js';

/** The files `keys` writes, and whether each is secret (written 0600). */
export const KEY_FILES = {
  rootKey: { name: 'root-ca.key.pem', secret: true },
  rootCertificate: { name: 'root-ca.pem', secret: false },
  leafKey: { name: 'signing.key.pem', secret: true },
  leafCertificate: { name: 'signing.pem', secret: false },
} as const;

export const KEYS_USAGE = `Usage: vp-authorizer keys --out <dir> [--dns <name>] [--days <n>] [--root-days <n>] [--reader] [--force]
       vp-authorizer keys csr --key <file.pem | pkcs11:…> --dns <name> --org <name> --org-id <id> (see: keys csr --help)

Writes a P-256 root CA and a request-signing certificate issued by it that meet HAIP 1.0
(ES256; leaf with a dNSName subjectAltName, keyUsage digitalSignature, not a CA):

  root-ca.key.pem   root CA private key (PKCS#8, mode 0600) — keep it offline
  root-ca.pem       root CA certificate: the instance's signing.trustAnchor
  signing.key.pem   request-signing private key (PKCS#8, mode 0600): signing.privateKey
  signing.pem       request-signing certificate: signing.certificateChain[0]

Options:
  --out <dir>        directory to write to (created 0700 if missing; refused if it is a
                     symbolic link, another user's, or writable by other users)
  --dns <name>       dNSName of the signing certificate (default: localhost); the
                     x509_san_dns client id is x509_san_dns:<name>
  --days <n>         validity of the signing certificate in days (default: 365)
  --root-days <n>    validity of the root CA in days (default: 3650)
  --reader           also make the signing certificate an mdoc reader certificate
                     (extendedKeyUsage 1.0.18013.5.1.6, ISO/IEC 18013-5): it can then sign
                     the readerAuth of org-iso-mdoc requests (instance option readerAuth)
  --force            replace existing files (each is replaced, never written into)
`;

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const DNS_NAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i;

function days(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 36_500) throw new UsageError(`${flag} must be a whole number of days between 1 and 36500`);
  return n;
}

class UsageError extends Error {}

/** `keys`: issue a HAIP-ready signing chain into a directory. Returns the process exit code. */
export async function keysCommand(argv: string[], io: CommandOutput): Promise<number> {
  if (argv[0] === 'csr') return csrCommand(argv.slice(1), io);
  let options: { out?: string; dns?: string; days?: string; 'root-days'?: string; reader?: boolean; force?: boolean; help?: boolean };
  let leafDays: number;
  let rootDays: number;
  try {
    options = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        dns: { type: 'string' },
        days: { type: 'string' },
        'root-days': { type: 'string' },
        reader: { type: 'boolean' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
    if (options.help) {
      io.out(KEYS_USAGE);
      return 0;
    }
    if (!options.out) throw new UsageError('--out <dir> is required');
    if (options.dns !== undefined && !DNS_NAME.test(options.dns)) throw new UsageError(`--dns must be a DNS name such as rp.example.com`);
    leafDays = days(options.days, 365, '--days');
    rootDays = days(options['root-days'], 3650, '--root-days');
    if (rootDays < leafDays) throw new UsageError('--root-days must be at least --days (the root must outlive the certificates it issues)');
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${KEYS_USAGE}`);
    return 2;
  }

  const dir = resolve(options.out);
  const unsafe = unsafeDirectory(dir);
  if (unsafe) {
    io.err(`Refusing to write keys into ${dir}: ${unsafe}`);
    return 1;
  }
  const paths = Object.fromEntries(Object.entries(KEY_FILES).map(([k, f]) => [k, join(dir, f.name)])) as Record<keyof typeof KEY_FILES, string>;
  // lstat: a dangling symlink is an existing name too (existsSync would follow it and say no).
  const existing = Object.values(paths).filter((p) => lstatSync(p, { throwIfNoEntry: false }) !== undefined);
  if (existing.length > 0 && !options.force) {
    io.err(`Refusing to overwrite existing files (use --force to replace them):\n${existing.map((p) => `  ${p}`).join('\n')}`);
    return 1;
  }

  const chain = await issueSigningChain({ dnsName: options.dns ?? 'localhost', leafDays, rootDays, ...(options.reader ? { readerAuth: true } : {}) });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const contents: Record<keyof typeof KEY_FILES, string> = {
    rootKey: chain.root.privateKeyPem,
    rootCertificate: `${chain.root.certificatePem.trimEnd()}\n`,
    leafKey: chain.leaf.privateKeyPem,
    leafCertificate: `${chain.leaf.certificatePem.trimEnd()}\n`,
  };
  try {
    for (const key of Object.keys(KEY_FILES) as (keyof typeof KEY_FILES)[]) {
      writeNewFile(paths[key], contents[key], KEY_FILES[key].secret ? 0o600 : 0o644, options.force === true);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err(`Could not write the keys into ${dir}${code ? ` (${code})` : ''}: ${code === 'EEXIST' ? 'a file appeared while writing; nothing was overwritten' : 'check the directory and try again'}`);
    return 1;
  }

  const leaf = new X509Certificate(chain.leaf.certificatePem);
  // x509_hash (OpenID4VP 1.0 section 5.9.3): base64url SHA-256 of the leaf's DER.
  const x509Hash = createHash('sha256').update(leaf.raw).digest('base64url');
  io.out(
    [
      `Wrote to ${dir}:`,
      ...Object.values(KEY_FILES).map((f) => `  ${f.name}${f.secret ? '  (private, 0600)' : ''}`),
      '',
      `Signing certificate: ${leaf.subjectAltName ?? ''}, valid until ${new Date(leaf.validTo).toISOString()}`,
      `Client identifiers:  x509_hash:${x509Hash}`,
      `                     x509_san_dns:${options.dns ?? 'localhost'}`,
      '',
      'Instance configuration:',
      `  signing: {`,
      `    privateKey: readFileSync('${paths.leafKey}', 'utf8'),`,
      `    certificateChain: [readFileSync('${paths.leafCertificate}', 'utf8')],`,
      `    trustAnchor: readFileSync('${paths.rootCertificate}', 'utf8'),`,
      `  }`,
      ...(options.reader ? ['  readerAuth: true   (the signing certificate is also the mdoc reader certificate)'] : []),
      `Keep ${KEY_FILES.rootKey.name} offline: it is needed only to issue the next signing certificate.`,
    ].join('\n'),
  );
  return 0;
}

/** Why `dir` is not a safe place for private keys, or undefined when it is (or does not exist yet). */
function unsafeDirectory(dir: string): string | undefined {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return 'it is a symbolic link (name the directory it points to)';
  if (!stat.isDirectory()) return 'it is not a directory';
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 'it belongs to another user';
  // Others who can create names here could plant a file or link where a key is about to go.
  if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0) return 'other users can write to it';
  return undefined;
}

/**
 * Write `path` without ever writing into an existing file or through a link: the content goes to a
 * fresh file created with its final mode (O_EXCL, O_NOFOLLOW), which is then linked to the name
 * (fails if the name exists) or, with `replace`, renamed over it (a link is replaced, not followed).
 */
function writeNewFile(path: string, content: string, mode: number, replace: boolean): void {
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (replace) renameSync(temporary, path);
    else linkSync(temporary, path);
  } finally {
    if (!replace) unlinkSync(temporary);
    else if (lstatSync(temporary, { throwIfNoEntry: false })) unlinkSync(temporary);
  }
}
