import { X509Certificate, createPrivateKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { ConfigError } from '../errors/config-error.js';
import { SignerUnavailableError } from '../errors/signer-unavailable-error.js';
import { certificateDer, x509Hash } from '../crypto/x509-hash.js';
import { createKeySigner, syncSignerOf } from '../crypto/key-signer.js';
import type { RequestSigner } from '../model/request-signer.js';
import type { SigningInput, SigningOption } from '../config/signing-input.js';

export type { SigningInput, SigningOption } from '../config/signing-input.js';

/** Default and largest wait for one external `sign` call, in ms. */
export const DEFAULT_SIGN_TIMEOUT_MS = 5_000;
const MAX_SIGN_TIMEOUT_MS = 60_000;
/** ES256 signatures are r || s, 32 bytes each (RFC 7518 section 3.4). */
const ES256_SIGNATURE_BYTES = 64;

export type ClientIdPrefix = 'x509_hash' | 'x509_san_dns';
const CLIENT_ID_PREFIXES: readonly ClientIdPrefix[] = ['x509_hash', 'x509_san_dns'];

/** Signing material ready for use; derived once from a SigningInput. */
export interface SigningMaterial {
  alg: 'ES256';
  /**
   * Sign a JWS signing input through the identity's RequestSigner: bounded by its timeout, the
   * answer checked to be 64 bytes. Rejects with SignerUnavailableError (503) on failure or timeout.
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
  /** Present for keys held in this process: the same signature, synchronously (request objects are encoded in a kept buffer). */
  signSync?: (data: Uint8Array) => Uint8Array;
  /** Standard base64 DER, leaf first, as put in the `x5c` header (frozen: request-object headers are encoded once per material). */
  readonly x5c: readonly string[];
  leafDer: Uint8Array;
  /** The leaf certificate's public key as a JWK (kty, crv, x, y), exported once: the JWKS endpoint is public. */
  readonly publicJwk: Readonly<JsonWebKey>;
  /** base64url SHA-256 of the leaf DER (the `x509_hash` client id value). */
  x509Hash: string;
  /** dNSName SANs of the leaf, in certificate order. */
  dnsNames: string[];
  leafSelfSigned: boolean;
  /** The leaf is a CA certificate (basicConstraints cA=true) rather than an end-entity one. */
  leafIsCa: boolean;
  /** The configured chain contains the trust anchor (or ends in a self-signed root). */
  chainIncludesAnchor: boolean;
  trustAnchorPem?: string;
}

interface Parsed {
  signer: RequestSigner;
  /** Set for a signer given by the user: its key is checked against the leaf by a probe signature when loaded. */
  external: boolean;
  timeoutMs: number;
  chain: X509Certificate[];
  anchor?: X509Certificate;
}

type Issue = { path: string; message: string };

const P256 = 'prime256v1';

function join(base: string, key: string | number): string {
  return base === '' ? String(key) : `${base}.${key}`;
}

function parseCertificate(value: unknown, path: string, issues: Issue[]): X509Certificate | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    issues.push({ path, message: 'must be a PEM certificate or base64 DER string' });
    return undefined;
  }
  try {
    return new X509Certificate(Buffer.from(certificateDer(value)));
  } catch {
    issues.push({ path, message: 'is not a valid X.509 certificate (expected PEM or base64 DER)' });
    return undefined;
  }
}

function parsePrivateKey(value: unknown, path: string, issues: Issue[]): KeyObject | undefined {
  let key: KeyObject;
  try {
    if (typeof value === 'string') key = createPrivateKey(value);
    else if (value !== null && typeof value === 'object') key = createPrivateKey({ key: value as import('node:crypto').JsonWebKey, format: 'jwk' });
    else {
      issues.push({ path, message: 'must be a P-256 private JWK or a PKCS#8 PEM string' });
      return undefined;
    }
  } catch {
    // Never echo the key material: only say what was wrong with its form.
    issues.push({ path, message: 'could not be read as a private key (expected a P-256 JWK with "d" or a PKCS#8 PEM)' });
    return undefined;
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== P256) {
    issues.push({ path, message: 'must be an EC P-256 key (ES256)' });
    return undefined;
  }
  return key;
}

/**
 * Self-signed: the signature verifies under the certificate's own public key. RFC 5280 also asks for
 * issuer = subject, but names are not compared here: a string comparison misses an issuer spelled
 * in another case or named anything else, while a signature under the leaf's own key means nobody
 * else vouched for it, whatever the names say. Not `checkIssued(cert)` either: OpenSSL's issuer
 * check also demands keyCertSign when keyUsage is present, so it misses a self-signed end-entity
 * certificate (digitalSignature only), which HAIP forbids as much as a self-signed root.
 */
const isSelfSigned = (cert: X509Certificate): boolean => cert.verify(cert.publicKey);
const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean => cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

function parse(input: unknown, path: string): { input: SigningInput; parsed: Parsed } {
  const issues: Issue[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ConfigError('Invalid signing material:', [{ path, message: 'must be an object { privateKey, certificateChain, trustAnchor? } or { signer, trustAnchor? }' }]);
  }
  const raw = input as Record<string, unknown>;
  const external = raw.signer !== undefined;
  let key: KeyObject | undefined;
  let certificates: unknown;
  let chainPath = join(path, 'certificateChain');
  let timeoutMs = DEFAULT_SIGN_TIMEOUT_MS;
  if (external) {
    if (raw.privateKey !== undefined || raw.certificateChain !== undefined) {
      issues.push({ path, message: 'takes either privateKey and certificateChain, or a signer (which carries its certificateChain), not both' });
    }
    const signer = raw.signer as Partial<RequestSigner> | null;
    if (signer === null || typeof signer !== 'object' || typeof signer.sign !== 'function') {
      issues.push({ path: join(path, 'signer'), message: 'must be a RequestSigner { alg, certificateChain, sign(bytes) }' });
    } else {
      if (signer.alg !== 'ES256') issues.push({ path: join(path, 'signer.alg'), message: 'must be "ES256"' });
      certificates = signer.certificateChain;
      chainPath = join(path, 'signer.certificateChain');
    }
    if (raw.timeoutMs !== undefined) {
      if (typeof raw.timeoutMs !== 'number' || !Number.isInteger(raw.timeoutMs) || raw.timeoutMs < 1 || raw.timeoutMs > MAX_SIGN_TIMEOUT_MS) {
        issues.push({ path: join(path, 'timeoutMs'), message: `must be a whole number of milliseconds from 1 to ${MAX_SIGN_TIMEOUT_MS}` });
      } else timeoutMs = raw.timeoutMs;
    }
  } else {
    key = parsePrivateKey(raw.privateKey, join(path, 'privateKey'), issues);
    certificates = raw.certificateChain;
  }

  const chain: X509Certificate[] = [];
  if (!Array.isArray(certificates) || certificates.length === 0) {
    issues.push({ path: chainPath, message: 'must list at least the leaf certificate (leaf first, without the trust anchor)' });
  } else {
    certificates.forEach((c, i) => {
      const cert = parseCertificate(c, join(chainPath, i), issues);
      if (cert) chain.push(cert);
    });
  }
  if (raw.clientIdPrefix !== undefined && !CLIENT_ID_PREFIXES.includes(raw.clientIdPrefix as ClientIdPrefix)) {
    issues.push({ path: join(path, 'clientIdPrefix'), message: 'must be "x509_hash" or "x509_san_dns"' });
  }
  let anchor: X509Certificate | undefined;
  if (raw.trustAnchor !== undefined) anchor = parseCertificate(raw.trustAnchor, join(path, 'trustAnchor'), issues);

  const complete = Array.isArray(certificates) && chain.length === certificates.length;
  const leaf = chain[0];
  if (leaf && complete) {
    const leafKey = leaf.publicKey;
    if (leafKey.asymmetricKeyType !== 'ec' || leafKey.asymmetricKeyDetails?.namedCurve !== P256) {
      issues.push({ path: join(chainPath, 0), message: 'the leaf certificate must carry an EC P-256 public key' });
    } else if (key && !leaf.checkPrivateKey(key)) {
      issues.push({ path: join(path, 'privateKey'), message: 'does not match the public key of the leaf certificate (certificateChain[0])' });
    }
    const validTo = Date.parse(leaf.validTo);
    if (Number.isFinite(validTo) && validTo < Date.now()) issues.push({ path: join(chainPath, 0), message: `the leaf certificate expired on ${new Date(validTo).toISOString()}` });
    for (let i = 0; i + 1 < chain.length; i++) {
      if (!issuedBy(chain[i]!, chain[i + 1]!)) issues.push({ path: join(chainPath, i), message: `is not issued (signed) by certificateChain[${i + 1}]; order the chain leaf first` });
    }
    const last = chain[chain.length - 1]!;
    if (anchor && last.raw.compare(anchor.raw) !== 0 && !issuedBy(last, anchor)) {
      issues.push({ path: join(path, 'trustAnchor'), message: 'did not issue the last certificate of certificateChain' });
    }
  }
  if (issues.length > 0) throw new ConfigError('Invalid signing material:', issues);
  const signer = external ? (raw.signer as RequestSigner) : createKeySigner({ privateKey: key!, certificateChain: chain.map((c) => c.raw.toString('base64')) });
  return { input: raw as unknown as SigningInput, parsed: { signer, external, timeoutMs, chain, ...(anchor ? { anchor } : {}) } };
}

/**
 * Validate signing input synchronously (at construction): key form and curve, every certificate
 * parses, the key matches the leaf, the chain is ordered leaf first. Throws a ConfigError listing
 * each issue; key material is never included in messages.
 */
export function checkSigningInput(input: unknown, path = 'signing'): SigningInput {
  return parse(input, path).input;
}

function dnsNamesOf(cert: X509Certificate): string[] {
  const san = cert.subjectAltName;
  if (!san) return [];
  const names: string[] = [];
  // Node renders SANs as "DNS:a, DNS:b"; values with special characters are JSON-quoted.
  for (const m of san.matchAll(/(?:^|,\s*)DNS:("(?:[^"\\]|\\.)*"|[^,]*)/g)) {
    const value = m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!.trim();
    if (value) names.push(value);
  }
  return names;
}

/**
 * Turn checked signing input into what request objects are signed with. A signer given by the user
 * signs a probe first, verified under the leaf's public key: a signer whose key is not the leaf's
 * is refused here (ConfigError), one that is unreachable rejects with SignerUnavailableError.
 */
export async function loadSigningMaterial(input: SigningInput, path = 'signing'): Promise<SigningMaterial> {
  const { parsed } = parse(input, path);
  const { signer, chain, anchor, external, timeoutMs } = parsed;
  const leaf = chain[0]!;
  const leafDer = new Uint8Array(leaf.raw);
  const { leafSelfSigned, leafIsCa, chainIncludesAnchor } = chainFacts(parsed);
  const signSync = external ? undefined : syncSignerOf(signer);
  const material: SigningMaterial = {
    alg: 'ES256',
    sign: signSync ? async (data) => signSync(data) : boundedSign(signer, timeoutMs),
    ...(signSync ? { signSync } : {}),
    x5c: Object.freeze(chain.map((c) => c.raw.toString('base64'))),
    leafDer,
    publicJwk: Object.freeze(leaf.publicKey.export({ format: 'jwk' })),
    x509Hash: x509Hash(leafDer),
    dnsNames: dnsNamesOf(leaf),
    leafSelfSigned,
    leafIsCa,
    chainIncludesAnchor,
    ...(anchor ? { trustAnchorPem: anchor.toString() } : {}),
  };
  if (external) await probe(boundedSign(signer, timeoutMs, join(path, 'signer')), leaf, path);
  return material;
}

/**
 * One signature over random bytes, checked under the leaf certificate's key: the only way to know
 * that a key held elsewhere is the one the certificate names.
 */
async function probe(sign: SigningMaterial['sign'], leaf: X509Certificate, path: string): Promise<void> {
  const data = randomBytes(32);
  const signature = await sign(data);
  if (!verify('sha256', data, { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, signature)) {
    throw new ConfigError('Invalid signing material:', [
      { path: join(path, 'signer'), message: 'signs with a key that does not match the public key of the leaf certificate (certificateChain[0]), or does not answer raw r || s (P1363) signatures' },
    ]);
  }
}

/** A user's signer, bounded in time and checked for the signature's form; failures become SignerUnavailableError. */
function boundedSign(signer: RequestSigner, timeoutMs: number, probing?: string): (data: Uint8Array) => Promise<Uint8Array> {
  return async (data) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SignerUnavailableError(`no signature within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const signature = await Promise.race([Promise.resolve().then(() => signer.sign(data)), timeout]);
      if (!(signature instanceof Uint8Array) || signature.length !== ES256_SIGNATURE_BYTES) {
        const answered = signature instanceof Uint8Array ? `${signature.length} bytes` : 'no bytes';
        // Found by the probe, a signature of the wrong form is a configuration mistake, not an outage.
        if (probing !== undefined) throw new ConfigError('Invalid signing material:', [{ path: probing, message: `answered ${answered}, not a 64-byte ES256 signature: sign(bytes) must resolve to the raw r || s (IEEE P1363), not DER` }]);
        throw new SignerUnavailableError(`the signer answered ${signature instanceof Uint8Array ? `${signature.length} bytes` : 'no bytes'}, not a 64-byte ES256 signature (r || s)`);
      }
      return signature;
    } catch (error) {
      if (error instanceof SignerUnavailableError || error instanceof ConfigError) throw error;
      throw new SignerUnavailableError('the signer failed', error);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** What the HAIP signing rules look at in a chain (the same facts SigningMaterial carries). */
function chainFacts({ chain, anchor }: Parsed): Pick<SigningMaterial, 'leafSelfSigned' | 'leafIsCa' | 'chainIncludesAnchor'> {
  const last = chain[chain.length - 1]!;
  const chainIncludesAnchor = (anchor !== undefined && chain.some((c) => c.raw.compare(anchor.raw) === 0)) || (chain.length > 1 && isSelfSigned(last));
  return { leafSelfSigned: isSelfSigned(chain[0]!), leafIsCa: chain[0]!.ca, chainIncludesAnchor };
}

/** The leaf certificate of checked input (see checkSigningIdentities): the access certificate of that identity. */
export function leafCertificateOf(input: SigningInput): X509Certificate {
  return parse(input, 'signing').parsed.chain[0]!;
}

/** One identity as the HAIP signing rules see it: the prefix it signs under and its chain's shape. */
export interface HaipSigner {
  clientIdPrefix: ClientIdPrefix;
  leafSelfSigned: boolean;
  leafIsCa: boolean;
  chainIncludesAnchor: boolean;
}

/**
 * The HAIP facts of every identity of checked input (see checkSigningIdentities), primary first,
 * derived at construction from the certificates alone (no key is imported).
 */
export function haipSigners(inputs: SigningInput[], defaultPrefix: ClientIdPrefix): HaipSigner[] {
  return inputs.map((input) => ({ clientIdPrefix: input.clientIdPrefix ?? defaultPrefix, ...chainFacts(parse(input, 'signing').parsed) }));
}

/** One signing identity of an instance: its material and the client_id it signs under. */
export interface SigningIdentity {
  material: SigningMaterial;
  clientId: string;
  /** Published and still signing for its own authorizations, but used for nothing new (rotation). */
  retired: boolean;
}

/**
 * Validate an instance's `signing` option (one identity or a non-empty array) at construction:
 * each identity as {@link checkSigningInput}, an x509_san_dns identity needs a dNSName SAN, the
 * primary's prefix may only repeat `defaultPrefix`, and no two identities share a client_id
 * (a wallet could not tell their signatures apart). Returns the identities, primary first.
 */
export function checkSigningIdentities(input: unknown, defaultPrefix: ClientIdPrefix, path = 'signing'): SigningInput[] {
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw new ConfigError('Invalid signing material:', [{ path, message: 'must list at least one signing identity' }]);
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  const checked: SigningInput[] = [];
  list.forEach((entry, i) => {
    const at = Array.isArray(input) ? join(path, i) : path;
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parse(entry, at);
    } catch (error) {
      if (error instanceof ConfigError) issues.push(...error.issues);
      else throw error;
      return;
    }
    checked.push(parsed.input);
    const prefix = parsed.input.clientIdPrefix ?? defaultPrefix;
    if (i === 0 && parsed.input.retired === true) {
      issues.push({ path: join(at, 'retired'), message: 'the primary identity signs new requests and cannot be retired: put the new identity first' });
      return;
    }
    if (raw(parsed.input).retired !== undefined && typeof raw(parsed.input).retired !== 'boolean') {
      issues.push({ path: join(at, 'retired'), message: 'must be true or false' });
      return;
    }
    if (i === 0 && prefix !== defaultPrefix) {
      issues.push({ path: join(at, 'clientIdPrefix'), message: `the primary identity signs under openId4vp.clientIdPrefix (${defaultPrefix}); set that instead` });
      return;
    }
    const leaf = parsed.parsed.chain[0]!;
    const dns = dnsNamesOf(leaf)[0];
    if (prefix === 'x509_san_dns' && !dns) {
      issues.push({ path: join(at, 'certificateChain.0'), message: 'the x509_san_dns client id prefix needs a leaf certificate with a dNSName subjectAltName' });
      return;
    }
    const clientId = prefix === 'x509_hash' ? `x509_hash:${x509Hash(new Uint8Array(leaf.raw))}` : `x509_san_dns:${dns}`;
    const earlier = seen.get(clientId);
    if (earlier !== undefined) issues.push({ path: at, message: `signs under the same client_id as identity ${earlier} (${clientId})` });
    else seen.set(clientId, i);
  });
  if (issues.length > 0) throw new ConfigError('Invalid signing material:', issues);
  return checked;
}

const raw = (input: SigningInput) => input as unknown as Record<string, unknown>;

/** Load checked identities (see checkSigningIdentities): material and client_id each, primary first. */
export async function loadSigningIdentities(inputs: SigningInput[], defaultPrefix: ClientIdPrefix): Promise<SigningIdentity[]> {
  return Promise.all(
    inputs.map(async (input) => {
      const material = await loadSigningMaterial(input);
      return { material, clientId: clientIdFor(input.clientIdPrefix ?? defaultPrefix, material), retired: input.retired === true };
    }),
  );
}

/** The client_id for a prefix: `x509_hash:<hash>` or `x509_san_dns:<first dNSName of the leaf>`. */
export function clientIdFor(prefix: ClientIdPrefix, m: SigningMaterial): string {
  if (prefix === 'x509_hash') return `x509_hash:${m.x509Hash}`;
  const dns = m.dnsNames[0];
  if (!dns) throw new ConfigError('Invalid signing material:', [{ path: 'signing.certificateChain.0', message: 'the x509_san_dns client id prefix needs a leaf certificate with a dNSName subjectAltName' }]);
  return `x509_san_dns:${dns}`;
}
