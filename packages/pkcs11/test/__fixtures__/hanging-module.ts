// The hanging PKCS#11 module (hanging-pkcs11-module.c) compiled for this test run, in front of SoftHSM2.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HangingModule {
  /** Path of the compiled module, to load instead of SoftHSM2's. */
  path: string;
  /** From now on C_Sign blocks inside the library until `answer()`. */
  hang(): void;
  answer(): void;
}

/** Compiles the module into `dir` (needs cc and p11-kit's pkcs11.h: Debian's libp11-kit-dev). */
export function buildHangingModule(dir: string, target: string): HangingModule {
  const path = join(dir, 'hanging-pkcs11.so');
  const source = fileURLToPath(new URL('./hanging-pkcs11-module.c', import.meta.url));
  execFileSync('cc', ['-shared', '-fPIC', '-O1', '-I/usr/include/p11-kit-1', '-o', path, source, '-ldl'], { stdio: 'pipe' });
  const flag = join(dir, 'hang');
  process.env.HANGING_PKCS11_TARGET = target;
  process.env.HANGING_PKCS11_WHILE = flag;
  return { path, hang: () => writeFileSync(flag, ''), answer: () => rmSync(flag, { force: true }) };
}
