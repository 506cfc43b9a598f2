import binding from 'pkcs11js';
import type * as Pkcs11js from 'pkcs11js';

/** The pkcs11js namespace: constants and the PKCS11 class of the native addon (CommonJS, read through its default export). */
export type Pkcs11Lib = typeof Pkcs11js;
export const pkcs11js = (): Pkcs11Lib => binding as unknown as Pkcs11Lib;

interface Loaded {
  module: Pkcs11js.PKCS11;
  users: number;
  /** false when someone else in the process had initialized the library: then it is not ours to finalize. */
  ownsInitialize: boolean;
}

/**
 * One loaded PKCS#11 library per path in this process. C_Initialize may run once per library and
 * process; signers on the same library (several keys, several instances) share it, and the last
 * one to close finalizes it.
 */
const loaded = new Map<string, Loaded>();

export function acquireModule(path: string): Pkcs11js.PKCS11 {
  const existing = loaded.get(path);
  if (existing) {
    existing.users++;
    return existing.module;
  }
  const { PKCS11 } = pkcs11js();
  const module = new PKCS11();
  module.load(path);
  let ownsInitialize = true;
  try {
    module.C_Initialize({ flags: pkcs11js().CKF_OS_LOCKING_OK });
  } catch (error) {
    if (codeName(error) !== 'CKR_CRYPTOKI_ALREADY_INITIALIZED') {
      module.close();
      throw error;
    }
    ownsInitialize = false;
  }
  loaded.set(path, { module, users: 1, ownsInitialize });
  return module;
}

export function releaseModule(path: string): void {
  const entry = loaded.get(path);
  if (!entry || --entry.users > 0) return;
  loaded.delete(path);
  try {
    if (entry.ownsInitialize) entry.module.C_Finalize();
  } catch {
    // A token already gone may refuse to finalize; the library is unloaded all the same.
  }
  entry.module.close();
}

/** The CKR_… name of a pkcs11js error (its message), or undefined for anything else. */
export function codeName(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  return /^CKR_[A-Z_]+/.exec(message)?.[0];
}
