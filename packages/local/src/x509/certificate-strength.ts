import { publicKeyOf, type ParsedCertificate } from './certificate.js';

/** Hashes strong enough for certificate signatures; SHA-1 and MD5 are collision-broken. */
const STRONG_HASHES = new Set(['SHA-256', 'SHA-384', 'SHA-512']);
/** Signature schemes that need one of STRONG_HASHES (RSA-PSS without parameters means SHA-1). */
const HASHED_SCHEMES = new Set(['ECDSA', 'RSASSA-PKCS1-v1_5', 'RSA-PSS']);
const EDWARDS_SCHEMES = new Set(['Ed25519', 'Ed448']);
/** NIST P-256, P-384, P-521 as OpenSSL names them. */
const STRONG_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);
const MIN_RSA_BITS = 2048;
const MAX_RSA_BITS = 8192;
const MAX_RSA_EXPONENT = 65537n;

/** The public key is too small or of a kind we do not accept (DSA, other curves, RSA < 2048 bits). */
export function weakKeyProblem(c: ParsedCertificate, name: string): string | undefined {
  const key = publicKeyOf(c);
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      if ((details.modulusLength ?? 0) < MIN_RSA_BITS) return `${name} has a ${details.modulusLength ?? 'unknown'}-bit RSA key; at least ${MIN_RSA_BITS} bits are required`;
      // A wallet-supplied key is used before the chain reaches an anchor: a huge modulus or public
      // exponent makes each verification cost milliseconds instead of microseconds.
      if ((details.modulusLength ?? 0) > MAX_RSA_BITS) return `${name} has a ${details.modulusLength}-bit RSA key; at most ${MAX_RSA_BITS} bits are accepted`;
      if (details.publicExponent === undefined || details.publicExponent > MAX_RSA_EXPONENT || details.publicExponent % 2n === 0n) return `${name} has an RSA public exponent other than a small odd number (at most 65537)`;
      return undefined;
    case 'ec':
      return STRONG_CURVES.has(details.namedCurve ?? '') ? undefined : `${name} uses the EC curve ${details.namedCurve ?? '(unnamed)'}; only P-256, P-384 and P-521 are accepted`;
    case 'ed25519':
    case 'ed448':
      return undefined;
    default:
      return `${name} has a ${key.asymmetricKeyType ?? 'unknown'} key, which is not accepted`;
  }
}

/** The certificate's own signature uses a broken hash (SHA-1, MD5) or an unknown scheme. */
export function weakSignatureProblem(c: ParsedCertificate, name: string): string | undefined {
  let alg: { name?: unknown; hash?: unknown };
  try {
    alg = c.cert.signatureAlgorithm as { name?: unknown; hash?: unknown };
  } catch {
    return `${name} has an unreadable signature algorithm`;
  }
  const scheme = typeof alg.name === 'string' ? alg.name : '';
  if (EDWARDS_SCHEMES.has(scheme)) return undefined;
  const hash = typeof alg.hash === 'string' ? alg.hash : (alg.hash as { name?: unknown } | undefined)?.name;
  if (HASHED_SCHEMES.has(scheme) && typeof hash === 'string' && STRONG_HASHES.has(hash.toUpperCase())) return undefined;
  const described = HASHED_SCHEMES.has(scheme) ? `${scheme} with ${typeof hash === 'string' ? hash : 'an unspecified hash'}` : scheme || 'an unknown algorithm';
  return `${name} is signed with ${described}, which is not accepted`;
}
