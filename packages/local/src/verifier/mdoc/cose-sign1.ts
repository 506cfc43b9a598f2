import { verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { Tag } from 'cbor-x';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifierErrorCode } from '../verifier-error-codes.js';
import { decodeCbor, encodeCbor, isBytes, isMap } from './mdoc-cbor.js';

/** COSE algorithm ids → JOSE names (RFC 9053; -9 ESP256 and -19 Ed25519 are fully specified). */
const COSE_ALGS: Record<number, { jose: string; hash: string | null; curve?: string }> = {
  [-7]: { jose: 'ES256', hash: 'sha256', curve: 'prime256v1' },
  [-9]: { jose: 'ES256', hash: 'sha256', curve: 'prime256v1' },
  [-35]: { jose: 'ES384', hash: 'sha384', curve: 'secp384r1' },
  [-36]: { jose: 'ES512', hash: 'sha512', curve: 'secp521r1' },
  [-8]: { jose: 'EdDSA', hash: null },
  [-19]: { jose: 'EdDSA', hash: null },
};

const X5CHAIN = 33;

/** COSE ids `coseAlgorithm` accepts for these JOSE names (what the verifier advertises for mdoc). */
export function coseAlgorithmIds(allowed: readonly string[]): number[] {
  return Object.entries(COSE_ALGS)
    .filter(([, alg]) => allowed.includes(alg.jose))
    .map(([id]) => Number(id));
}

export interface CoseSign1 {
  /** The protected header bstr exactly as received (it is what the signature covers). */
  protectedBytes: Uint8Array;
  protectedHeader: Map<unknown, unknown>;
  unprotectedHeader: Map<unknown, unknown>;
  payload: Uint8Array | null;
  signature: Uint8Array;
}

/** COSE_Sign1 = [protected bstr, unprotected map, payload bstr / nil, signature bstr], tag 18 optional. */
export function parseCoseSign1(value: unknown, code: VerifierErrorCode, what: string): CoseSign1 {
  const fail = (detail: string) => new PolicyFailure(code, `The ${what} ${detail}`);
  const array = value instanceof Tag ? (value.tag === 18 ? value.value : undefined) : value;
  if (!Array.isArray(array) || array.length !== 4) throw fail('is not a COSE_Sign1 structure');
  const [protectedBytes, unprotectedHeader, payload, signature] = array as unknown[];
  if (!isBytes(protectedBytes) || !isMap(unprotectedHeader) || !(payload === null || isBytes(payload)) || !isBytes(signature)) throw fail('is not a COSE_Sign1 structure');
  let protectedHeader: unknown = new Map();
  if (protectedBytes.length > 0) {
    try {
      protectedHeader = decodeCbor(protectedBytes);
    } catch {
      throw fail('has an undecodable protected header');
    }
  }
  if (!isMap(protectedHeader)) throw fail('protected header is not a map');
  return { protectedBytes, protectedHeader, unprotectedHeader, payload, signature };
}

/** The JOSE name of the protected `alg` (label 1), which must be allowed. */
export function coseAlgorithm(sign1: CoseSign1, allowed: readonly string[], what: string): string {
  const id = sign1.protectedHeader.get(1);
  const alg = typeof id === 'number' ? COSE_ALGS[id] : undefined;
  if (!alg || !allowed.includes(alg.jose)) throw new PolicyFailure('proof.algorithm_not_allowed', `The ${what} uses the COSE algorithm ${typeof id === 'number' ? id : '(none)'}, which is not allowed`);
  return alg.jose;
}

/** x5chain (label 33; one bstr or an array of bstr), protected header first. */
export function coseX5chain(sign1: CoseSign1): Uint8Array[] | undefined {
  const value = sign1.protectedHeader.get(X5CHAIN) ?? sign1.unprotectedHeader.get(X5CHAIN);
  if (isBytes(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isBytes)) return value;
  return undefined;
}

/** Verifies the signature over `Sig_structure = ["Signature1", protected, h'', payload]`. */
export function verifyCoseSign1(sign1: CoseSign1, key: KeyObject, detachedPayload?: Uint8Array): boolean {
  const alg = COSE_ALGS[sign1.protectedHeader.get(1) as number];
  const payload = detachedPayload ?? sign1.payload;
  if (!alg || payload === null) return false;
  if (alg.curve && key.asymmetricKeyDetails?.namedCurve !== alg.curve) return false;
  if (!alg.curve && key.asymmetricKeyType !== 'ed25519') return false;
  const toBeSigned = encodeCbor(['Signature1', sign1.protectedBytes, new Uint8Array(0), payload]);
  try {
    return alg.hash === null ? cryptoVerify(null, toBeSigned, key, sign1.signature) : cryptoVerify(alg.hash, toBeSigned, { key, dsaEncoding: 'ieee-p1363' }, sign1.signature);
  } catch {
    return false;
  }
}
