// A throw-away SoftHSM2 for one test file: its own configuration and token directory under the
// OS temp dir, set in SOFTHSM2_CONF before the library is first loaded (SoftHSM2 reads it at C_Initialize).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SOFTHSM_MODULE = process.env.SOFTHSM2_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsm {
  dir: string;
  /** Initialize a fresh token with this label and user PIN. */
  initToken(label: string, pin: string): void;
  /** Delete a token while the library is loaded: the token disappears under the signer. */
  deleteToken(label: string): void;
  remove(): void;
}

export function startSoftHsm(): SoftHsm {
  const dir = mkdtempSync(join(tmpdir(), 'vp-authorizer-softhsm-'));
  const tokens = join(dir, 'tokens');
  mkdirSync(tokens);
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = conf;
  const util = (...args: string[]) => execFileSync('softhsm2-util', args, { env: { ...process.env, SOFTHSM2_CONF: conf }, stdio: 'pipe' });
  return {
    dir,
    initToken: (label, pin) => void util('--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', `${pin}-so`),
    deleteToken: (label) => void util('--delete-token', '--token', label),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
