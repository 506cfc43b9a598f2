import { verify, type KeyObject } from 'node:crypto';
import { base64UrlToBytes, base64UrlToUtf8, isRecord } from '../verifier/encoding.js';

/**
 * How each JOSE algorithm the verifier accepts is checked with node:crypto (RFC 7518 section 3.4,
 * RFC 8037): the digest, the key type (and curve) the algorithm demands, and the exact signature
 * length (ECDSA signatures are R || S, each as long as the curve order).
 */
const JWS_ALGORITHMS: Record<string, { hash: string | null; keyTypes: readonly string[]; curve?: string; signatureBytes?: number }> = {
  ES256: { hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1', signatureBytes: 64 },
  ES384: { hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1', signatureBytes: 96 },
  ES512: { hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1', signatureBytes: 132 },
  // As jose 6 (used before): EdDSA means Ed25519 only.
  EdDSA: { hash: null, keyTypes: ['ed25519'], signatureBytes: 64 },
  Ed25519: { hash: null, keyTypes: ['ed25519'], signatureBytes: 64 },
};

/**
 * A key's type and curve, read once per KeyObject: `asymmetricKeyDetails` asks OpenSSL and builds
 * a new object on every read, and the same issuer key verifies many credentials. A KeyObject
 * cannot change, so what it says once holds for its life.
 */
const shapes = new WeakMap<KeyObject, { type: string; curve: string | undefined }>();
function keyShape(key: KeyObject): { type: string; curve: string | undefined } {
  let shape = shapes.get(key);
  if (shape === undefined) {
    const type = key.asymmetricKeyType ?? '';
    shapes.set(key, (shape = { type, curve: type === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined }));
  }
  return shape;
}

/** The UTF-8 JSON object a base64url JWS segment encodes; throws on anything else. */
export function decodeJsonSegment(segment: string): Record<string, unknown> {
  const value = JSON.parse(base64UrlToUtf8(segment)) as unknown;
  if (!isRecord(value)) throw new TypeError('not a JSON object');
  return value;
}

/**
 * Checks a compact JWS signature with node:crypto; returns the decoded payload bytes or throws.
 * `header`, when the caller has it, is the protected header decoded from this same `compact`
 * (so it is not decoded again); its `alg` and `crit` are checked here either way.
 */
export function checkCompactSignature(compact: string, key: KeyObject, alg: string, header?: Record<string, unknown>): Uint8Array {
  if (typeof compact !== 'string') throw new TypeError('not a compact JWS');
  const first = compact.indexOf('.');
  const second = compact.indexOf('.', first + 1);
  if (first < 0 || second < 0 || compact.indexOf('.', second + 1) >= 0) throw new TypeError('not a compact JWS');
  const protectedHeader = header ?? decodeJsonSegment(compact.slice(0, first));
  if (protectedHeader.alg !== alg) throw new TypeError('header alg differs');
  // No critical extension is understood here (not even RFC 7797 b64): a JWS that lists any fails.
  if (protectedHeader.crit !== undefined) throw new TypeError('unsupported crit');
  const spec = Object.hasOwn(JWS_ALGORITHMS, alg) ? JWS_ALGORITHMS[alg] : undefined; // own names only: not "constructor"
  const shape = keyShape(key);
  if (!spec || !spec.keyTypes.includes(shape.type)) throw new TypeError('key does not fit the algorithm');
  if (spec.curve !== undefined && shape.curve !== spec.curve) throw new TypeError('key curve does not fit the algorithm');
  const signature = base64UrlToBytes(compact.slice(second + 1));
  if (spec.signatureBytes !== undefined && signature.length !== spec.signatureBytes) throw new TypeError('signature length');
  const payload = base64UrlToBytes(compact.slice(first + 1, second));
  const signingInput = Buffer.from(compact.slice(0, second), 'ascii');
  const ok = spec.hash === null ? verify(null, signingInput, key, signature) : verify(spec.hash, signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!ok) throw new TypeError('bad signature');
  return payload;
}
