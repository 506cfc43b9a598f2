import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { importJWK } from 'jose';
import { ConfigError } from '../errors/config-error.js';
import { certificateDer, x509Hash } from '../crypto/x509-hash.js';
import type { SigningInput, SigningOption } from '../config/signing-input.js';

export type { SigningInput, SigningOption } from '../config/signing-input.js';

export type ClientIdPrefix = 'x509_hash' | 'x509_san_dns';
const CLIENT_ID_PREFIXES: readonly ClientIdPrefix[] = ['x509_hash', 'x509_san_dns'];

/** Signing material ready for use; derived once from a SigningInput. */
export interface SigningMaterial {
  alg: 'ES256';
  privateKey: CryptoKey;
  /** The same key for node:crypto (compact request objects are signed with it, synchronously). */
  signingKey: KeyObject;
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
  key: KeyObject;
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
    throw new ConfigError('Invalid signing material:', [{ path, message: 'must be an object { privateKey, certificateChain, trustAnchor? }' }]);
  }
  const raw = input as Record<string, unknown>;
  const key = parsePrivateKey(raw.privateKey, join(path, 'privateKey'), issues);

  const chain: X509Certificate[] = [];
  const chainPath = join(path, 'certificateChain');
  if (!Array.isArray(raw.certificateChain) || raw.certificateChain.length === 0) {
    issues.push({ path: chainPath, message: 'must list at least the leaf certificate (leaf first, without the trust anchor)' });
  } else {
    raw.certificateChain.forEach((c, i) => {
      const cert = parseCertificate(c, join(chainPath, i), issues);
      if (cert) chain.push(cert);
    });
  }
  if (raw.clientIdPrefix !== undefined && !CLIENT_ID_PREFIXES.includes(raw.clientIdPrefix as ClientIdPrefix)) {
    issues.push({ path: join(path, 'clientIdPrefix'), message: 'must be "x509_hash" or "x509_san_dns"' });
  }
  let anchor: X509Certificate | undefined;
  if (raw.trustAnchor !== undefined) anchor = parseCertificate(raw.trustAnchor, join(path, 'trustAnchor'), issues);

  const complete = Array.isArray(raw.certificateChain) && chain.length === raw.certificateChain.length;
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
  return { input: raw as unknown as SigningInput, parsed: { key: key!, chain, ...(anchor ? { anchor } : {}) } };
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

/** Turn checked signing input into keys and derived values for signing request objects. */
export async function loadSigningMaterial(input: SigningInput): Promise<SigningMaterial> {
  const { parsed } = parse(input, 'signing');
  const { key, chain, anchor } = parsed;
  const leaf = chain[0]!;
  const jwk = key.export({ format: 'jwk' });
  const privateKey = (await importJWK({ ...jwk, alg: 'ES256' }, 'ES256', { extractable: false })) as CryptoKey;
  const leafDer = new Uint8Array(leaf.raw);
  const { leafSelfSigned, leafIsCa, chainIncludesAnchor } = chainFacts(parsed);
  return {
    alg: 'ES256',
    privateKey,
    signingKey: key,
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
}

/** What the HAIP signing rules look at in a chain (the same facts SigningMaterial carries). */
function chainFacts({ chain, anchor }: Parsed): Pick<SigningMaterial, 'leafSelfSigned' | 'leafIsCa' | 'chainIncludesAnchor'> {
  const last = chain[chain.length - 1]!;
  const chainIncludesAnchor = (anchor !== undefined && chain.some((c) => c.raw.compare(anchor.raw) === 0)) || (chain.length > 1 && isSelfSigned(last));
  return { leafSelfSigned: isSelfSigned(chain[0]!), leafIsCa: chain[0]!.ca, chainIncludesAnchor };
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

/** Load checked identities (see checkSigningIdentities): material and client_id each, primary first. */
export async function loadSigningIdentities(inputs: SigningInput[], defaultPrefix: ClientIdPrefix): Promise<SigningIdentity[]> {
  return Promise.all(
    inputs.map(async (input) => {
      const material = await loadSigningMaterial(input);
      return { material, clientId: clientIdFor(input.clientIdPrefix ?? defaultPrefix, material) };
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
