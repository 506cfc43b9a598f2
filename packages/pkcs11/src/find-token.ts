import type * as Pkcs11js from 'pkcs11js';
import { Pkcs11SignerError } from './pkcs11-signer-error.js';

/** Which token: by its label or its serial number (both as the token reports them, without the padding). */
export type TokenSelector = { label: string; serial?: never } | { serial: string; label?: never };

/**
 * The slot of the one present token that matches. Slot ids are not stable (SoftHSM2 renumbers
 * them, a reader may move), so the token is found by what it says about itself, every time.
 */
export function findToken(module: Pkcs11js.PKCS11, token: TokenSelector): Pkcs11js.Handle {
  const matches = module.C_GetSlotList(true).filter((slot) => {
    const info = module.C_GetTokenInfo(slot);
    return token.label !== undefined ? info.label.trim() === token.label : info.serialNumber.trim() === token.serial;
  });
  const name = token.label !== undefined ? `labelled "${token.label}"` : `with serial ${token.serial}`;
  if (matches.length === 0) throw new Pkcs11SignerError(`no token ${name} is present`);
  if (matches.length > 1) throw new Pkcs11SignerError(`more than one token ${name} is present: select it by serial`);
  return matches[0]!;
}
