import type { JWK } from 'jose';
import { base58btcDecode } from './base58btc.js';
import type { VerificationMethod } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';
import { ecJwk, multikeyToJwk } from './multikey.js';

/** The encodings a verification method may carry its key in, as the `didMethods.response.preferredPublicKeyEncoding` option names them. */
export type PublicKeyEncoding = 'publicKeyJwk' | 'publicKeyBase58' | 'publicKeyMultibase';

const ENCODINGS: readonly PublicKeyEncoding[] = ['publicKeyJwk', 'publicKeyMultibase', 'publicKeyBase58'];

/**
 * publicKeyBase58 is raw key bytes: the curve comes from the verification method type (a 33-byte
 * point could be P-256 or secp256k1), except for a 32-byte value, which only Ed25519 produces.
 */
function base58Jwk(vm: VerificationMethod, value: string): JWK {
  let bytes: Uint8Array;
  try {
    bytes = base58btcDecode(value);
  } catch {
    throw new DidResolutionError('did.invalid', 'The publicKeyBase58 value is not valid base58');
  }
  const type = typeof vm.type === 'string' ? vm.type : '';
  if (/^Ed25519VerificationKey20(18|20)$/.test(type) || (bytes.length === 32 && !/Secp256|P256/i.test(type))) {
    if (bytes.length !== 32) throw new DidResolutionError('did.invalid', 'The Ed25519 key has the wrong length');
    return { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes).toString('base64url') };
  }
  if (/^EcdsaSecp256k1VerificationKey2019$/.test(type)) return ecJwk('secp256k1', 'secp256k1', bytes, 32);
  if (/^(EcdsaSecp256r1VerificationKey2019|P256Key2021)$/.test(type)) return ecJwk('P-256', 'prime256v1', bytes, 32);
  throw new DidResolutionError('did.key_not_found', 'The verification method type does not say which curve its publicKeyBase58 key is on');
}

/**
 * The verification method's key as a JWK jose/node:crypto can import, taken from the preferred
 * encoding when the method carries several, else from whichever it has (publicKeyJwk,
 * publicKeyMultibase, publicKeyBase58). Keys expressed only as a blockchain account id (did:pkh,
 * did:ethr without a public key) have no key to verify with and fail with did.key_not_found.
 */
export function verificationMethodJwk(vm: VerificationMethod | undefined, preferred?: PublicKeyEncoding): JWK {
  const order = preferred ? [preferred, ...ENCODINGS.filter((e) => e !== preferred)] : ENCODINGS;
  for (const encoding of order) {
    const value = vm?.[encoding];
    if (encoding === 'publicKeyJwk' && typeof value === 'object' && value !== null) return value as JWK;
    if (encoding === 'publicKeyMultibase' && typeof value === 'string') return multikeyToJwk(value);
    if (encoding === 'publicKeyBase58' && typeof value === 'string') return base58Jwk(vm!, value);
  }
  throw new DidResolutionError('did.key_not_found', 'The verification method has no publicKeyJwk, publicKeyMultibase or publicKeyBase58');
}
