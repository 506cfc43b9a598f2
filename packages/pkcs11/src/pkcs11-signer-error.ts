import { codeName } from './pkcs11-module.js';

/** An error that says which PKCS#11 call failed and its CKR code, and nothing the caller passed in. */
export class Pkcs11SignerError extends Error {
  override readonly name = 'Pkcs11SignerError';
  readonly ckr: string | undefined;
  constructor(what: string, cause?: unknown) {
    const ckr = cause === undefined ? undefined : codeName(cause);
    super(ckr ? `${what}: ${ckr}` : what);
    this.ckr = ckr;
  }
}
