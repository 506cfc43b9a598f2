import { X509Certificate, verify } from 'node:crypto';
import { ConfigError } from '../errors/config-error.js';
import { certificateDer } from '../crypto/x509-hash.js';

/** JOSE `typ` of a wallet-relying party registration certificate in JWT form (ETSI TS 119 475). */
export const REGISTRATION_CERTIFICATE_TYP = 'rc-wrp+jwt';
/** The `verifier_info` format that carries one (OpenID4VP 1.0 section 5.1, as the ARF uses it). */
export const REGISTRATION_CERTIFICATE_FORMAT = 'registration_cert';

/** One registration certificate of an instance: the JWT, and the credential queries it covers (all when left out). */
export type RegistrationCertificateInput = string | { jwt: string; credentialIds?: string[] };

/** A checked registration certificate as it goes into `verifier_info`. */
export interface RegistrationInfoEntry {
  format: typeof REGISTRATION_CERTIFICATE_FORMAT;
  data: string;
  credential_ids?: string[];
}

/** organizationIdentifier (ETSI EN 319 412-1), which an access certificate of a legal person carries. */
const ORGANIZATION_IDENTIFIER_OID = '2.5.4.97';
/** Clock skew allowed for `iat`/`nbf` in the future, in seconds. */
const SKEW_S = 60;
const MAX_JWT_CHARS = 64 * 1024;

const ALGORITHMS: Record<string, { hash: string; ec?: true; pss?: true }> = {
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
  PS256: { hash: 'sha256', pss: true },
  PS384: { hash: 'sha384', pss: true },
  PS512: { hash: 'sha512', pss: true },
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
};

type Issue = { path: string; message: string };

const decodeJson = (part: string): Record<string, unknown> | undefined => {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The subject's organizationIdentifier of a certificate, or undefined. Node renders the subject
 * one attribute per line; an attribute it has no short name for appears under its OID.
 */
export function organizationIdentifierOf(cert: X509Certificate): string | undefined {
  for (const line of cert.subject.split('\n')) {
    const eq = line.indexOf('=');
    const name = line.slice(0, eq);
    if (name === ORGANIZATION_IDENTIFIER_OID || name === 'organizationIdentifier') return line.slice(eq + 1);
  }
  return undefined;
}

/**
 * Check an instance's registration certificates once, at construction (ETSI TS 119 475, JWT form):
 * `typ` rc-wrp+jwt; the signature verifies under the first certificate of its `x5c`, whose chain is
 * in order; not expired (`exp`) and not yet to come (`iat`, `nbf`); `sub.id`, the registered
 * organisation identifier, equals the organizationIdentifier in the subject of the access
 * certificate that signs the requests (the leaf of the primary signing identity). The registrar's
 * chain is not checked against a trust anchor: that is the wallet's decision, from its trusted lists.
 */
export function checkRegistrationCertificates(input: unknown, accessCertificate: X509Certificate, now: number, path: string): RegistrationInfoEntry[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) throw new ConfigError('Invalid registration certificates:', [{ path, message: 'must be an array of JWT strings or { jwt, credentialIds? }' }]);
  const issues: Issue[] = [];
  const entries: RegistrationInfoEntry[] = [];
  const accessOrgId = organizationIdentifierOf(accessCertificate);
  input.forEach((item: unknown, i) => {
    const at = `${path}.${i}`;
    const jwt = typeof item === 'string' ? item : (item as { jwt?: unknown } | null)?.jwt;
    const credentialIds = typeof item === 'object' && item !== null ? (item as { credentialIds?: unknown }).credentialIds : undefined;
    const add = (message: string) => issues.push({ path: at, message });
    if (typeof jwt !== 'string' || jwt.length > MAX_JWT_CHARS || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt.trim())) return add(`must be a compact JWT (at most ${MAX_JWT_CHARS} characters), or { jwt, credentialIds? }`);
    if (credentialIds !== undefined && (!Array.isArray(credentialIds) || credentialIds.length === 0 || !credentialIds.every((id) => typeof id === 'string' && id !== ''))) {
      return add('credentialIds must be a non-empty array of credential query ids');
    }
    const [h, p, s] = jwt.trim().split('.') as [string, string, string];
    const header = decodeJson(h);
    const payload = decodeJson(p);
    if (!header || !payload) return add('is not a JWT: its header or payload is not a JSON object');
    if (header.typ !== REGISTRATION_CERTIFICATE_TYP) return add(`has typ ${JSON.stringify(header.typ)}; a registration certificate has typ "${REGISTRATION_CERTIFICATE_TYP}"`);
    const alg = typeof header.alg === 'string' ? ALGORITHMS[header.alg] : undefined;
    if (!alg) return add(`is signed with alg ${JSON.stringify(header.alg)}, not one of ${Object.keys(ALGORITHMS).join(', ')}`);
    if (!Array.isArray(header.x5c) || header.x5c.length === 0) return add('has no x5c header: the registrar\'s certificate chain is needed to verify it');
    let chain: X509Certificate[];
    try {
      chain = header.x5c.map((c: unknown) => new X509Certificate(Buffer.from(certificateDer(String(c)))));
    } catch {
      return add('has an x5c entry that is not a certificate');
    }
    for (let k = 0; k + 1 < chain.length; k++) {
      if (!chain[k]!.verify(chain[k + 1]!.publicKey)) return add(`x5c[${k}] is not signed by x5c[${k + 1}]`);
    }
    const key = chain[0]!.publicKey;
    const signed = verify(
      alg.hash,
      Buffer.from(`${h}.${p}`, 'latin1'),
      { key, ...(alg.ec ? { dsaEncoding: 'ieee-p1363' as const } : {}), ...(alg.pss ? { padding: 2, saltLength: Number(alg.hash.slice(3)) / 8 } : {}) },
      Buffer.from(s, 'base64url'),
    );
    if (!signed) return add('does not verify under the first certificate of its x5c');
    const nowS = Math.floor(now / 1000);
    if (typeof payload.exp === 'number' && payload.exp <= nowS) return add(`expired at ${new Date(payload.exp * 1000).toISOString()}: ask the registrar for a new one`);
    for (const claim of ['iat', 'nbf'] as const) {
      const value = payload[claim];
      if (typeof value === 'number' && value > nowS + SKEW_S) return add(`is not valid before ${new Date(value * 1000).toISOString()} (${claim})`);
    }
    const sub = payload.sub as { id?: unknown } | undefined;
    const subId = typeof sub === 'object' && sub !== null && typeof sub.id === 'string' ? sub.id : undefined;
    if (subId === undefined) return add('has no sub.id (the registered organisation identifier, ETSI TS 119 475)');
    if (accessOrgId === undefined) return add(`names organisation ${subId}, but the access certificate (the primary signing identity's leaf) has no organizationIdentifier (2.5.4.97) to match it`);
    if (accessOrgId !== subId) return add(`is for organisation ${subId}, but the access certificate is for ${accessOrgId}`);
    entries.push({ format: REGISTRATION_CERTIFICATE_FORMAT, data: jwt.trim(), ...(credentialIds ? { credential_ids: [...(credentialIds as string[])] } : {}) });
  });
  if (issues.length > 0) throw new ConfigError('Invalid registration certificates:', issues);
  return entries;
}
