import type { KeyObject } from 'node:crypto';
import { acquireModule, pkcs11js, releaseModule } from './pkcs11-module.js';
import { P256_EC_PARAMS, publicKeyFromEcPoint } from './ec-point.js';
import { findToken, type TokenSelector } from './find-token.js';
import { Pkcs11SignerError } from './pkcs11-signer-error.js';

/**
 * Generate a P-256 signing key pair on a token (C_GenerateKeyPair, CKM_EC_KEY_PAIR_GEN): the
 * private key is a token object, sensitive and not extractable, allowed to sign only. Answers the
 * public key, for a certificate signing request (`keys csr`) or a test certificate.
 */
export async function generatePkcs11Key(options: { module: string; token: TokenSelector; pin: string; label: string; id?: string }): Promise<{ publicKey: KeyObject }> {
  const lib = pkcs11js();
  const module = acquireModule(options.module);
  try {
    const slot = findToken(module, options.token);
    const session = module.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | lib.CKF_RW_SESSION);
    try {
      try {
        module.C_Login(session, lib.CKU_USER, options.pin);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('CKR_USER_ALREADY_LOGGED_IN'))) throw new Pkcs11SignerError('C_Login failed', error);
      }
      const naming = [{ type: lib.CKA_LABEL, value: options.label }, ...(options.id !== undefined ? [{ type: lib.CKA_ID, value: Buffer.from(options.id, 'hex') }] : [])];
      const keys = await module.C_GenerateKeyPairAsync(
        session,
        { mechanism: lib.CKM_EC_KEY_PAIR_GEN },
        [{ type: lib.CKA_TOKEN, value: true }, { type: lib.CKA_EC_PARAMS, value: P256_EC_PARAMS }, { type: lib.CKA_VERIFY, value: true }, ...naming],
        [
          { type: lib.CKA_TOKEN, value: true },
          { type: lib.CKA_PRIVATE, value: true },
          { type: lib.CKA_SENSITIVE, value: true },
          { type: lib.CKA_EXTRACTABLE, value: false },
          { type: lib.CKA_SIGN, value: true },
          ...naming,
        ],
      );
      const point = module.C_GetAttributeValue(session, keys.publicKey, [{ type: lib.CKA_EC_POINT }])[0]!.value as Buffer;
      return { publicKey: publicKeyFromEcPoint(point) };
    } finally {
      module.C_CloseSession(session);
    }
  } finally {
    releaseModule(options.module);
  }
}
