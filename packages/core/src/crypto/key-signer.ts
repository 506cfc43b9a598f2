import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { RequestSigner } from '../model/request-signer.js';

/**
 * The synchronous signing function of an in-process key, under a symbol only core reads: request
 * objects signed with it are encoded in one kept buffer with no await in between (see
 * signRequestObject), which keeps the default path allocation-free.
 */
export const SIGN_SYNC: unique symbol = Symbol('vp-authorizer.signSync');

/** A RequestSigner whose key lives in this process. */
export interface KeySigner extends RequestSigner {
  readonly [SIGN_SYNC]: (data: Uint8Array) => Uint8Array;
}

/**
 * The default RequestSigner: a P-256 private key held in this process (a JWK with `d`, or a PKCS#8
 * or SEC1 PEM), signing ES256 with node:crypto. What `signing: { privateKey, certificateChain }`
 * builds; useful on its own to wrap or to test another signer against. The key is not checked
 * against the chain here: the authorizer does that for every signer at construction.
 */
export function createKeySigner(input: { privateKey: JsonWebKey | string | KeyObject; certificateChain: readonly string[] }): KeySigner {
  const key = toKeyObject(input.privateKey);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new TypeError('createKeySigner needs an EC P-256 private key (ES256)');
  // RFC 7518 section 3.4: SHA-256, signature R || S (ieee-p1363), not DER.
  const signSync = (data: Uint8Array): Uint8Array => sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  return {
    alg: 'ES256',
    certificateChain: Object.freeze([...input.certificateChain]),
    sign: async (data) => signSync(data),
    [SIGN_SYNC]: signSync,
  };
}

function toKeyObject(value: JsonWebKey | string | KeyObject): KeyObject {
  if (typeof value === 'string') return createPrivateKey(value);
  if (isKeyObject(value)) return value;
  return createPrivateKey({ key: value as import('node:crypto').JsonWebKey, format: 'jwk' });
}

const isKeyObject = (value: unknown): value is KeyObject => typeof value === 'object' && value !== null && (value as KeyObject).type === 'private' && typeof (value as KeyObject).export === 'function';

export function syncSignerOf(signer: RequestSigner): ((data: Uint8Array) => Uint8Array) | undefined {
  return (signer as Partial<KeySigner>)[SIGN_SYNC];
}
