import type { SupportedAlgorithms } from '../model/verifier-client.js';
import { ES256_ONLY } from './accepted-algorithms.js';
import { ENCRYPTED_RESPONSE_ENC_VALUES } from './client-metadata.js';
import { withinJsonDepth } from '../formats/shared/json-depth.js';
import { AuthorizerError, type FieldError } from '../errors/authorizer-error.js';
import { formatDescriptor } from '../formats/registry.js';
import { jsonPointer } from './json-pointer.js';

/**
 * Parse the `wallet_metadata` form/query parameter (a JSON string, OpenID4VP 1.0 section 5.10).
 * Absent or empty → undefined. The raw value is never echoed back in the error.
 */
export function parseWalletMetadataParam(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AuthorizerError('authorization.invalid_wallet_metadata', { message: 'wallet_metadata is not valid JSON.' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !withinJsonDepth(value)) {
    throw new AuthorizerError('authorization.invalid_wallet_metadata', { message: 'wallet_metadata must be a JSON object of reasonable depth.' });
  }
  return value as Record<string, unknown>;
}

const STRING_ARRAYS = [
  'client_id_prefixes_supported',
  'client_id_schemes_supported',
  'request_object_signing_alg_values_supported',
  'response_types_supported',
  'response_modes_supported',
  'authorization_encryption_alg_values_supported',
  'authorization_encryption_enc_values_supported',
] as const;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy without `null` members: wallets serialize unset optional members as null, meaning absent. */
function withoutNulls(m: Record<string, unknown>): Record<string, unknown> {
  // Spread copies own members as data (a "__proto__" member stays a plain member); most wallets
  // send no nulls, so the entries/filter/fromEntries round trip is only paid when there are some.
  for (const key in m) if (Object.hasOwn(m, key) && m[key] === null) return Object.fromEntries(Object.entries(m).filter(([, value]) => value !== null));
  return { ...m };
}

/**
 * Wallet metadata with `null` treated as absent, at the top level and inside each
 * `vp_formats_supported` entry (a format whose entry is null counts as not listed).
 */
export function normalizeWalletMetadata(m: Record<string, unknown>): Record<string, unknown> {
  const out = withoutNulls(m);
  if (isObject(out.vp_formats_supported)) {
    const formats = withoutNulls(out.vp_formats_supported);
    out.vp_formats_supported = Object.fromEntries(Object.entries(formats).map(([format, entry]) => [format, isObject(entry) ? withoutNulls(entry) : entry]));
  }
  return out;
}

/** Type problems of known wallet-metadata members (pointers relative to the metadata object). */
export function walletMetadataShapeIssues(metadata: Record<string, unknown>): FieldError[] {
  return shapeIssues(normalizeWalletMetadata(metadata));
}

function shapeIssues(m: Record<string, unknown>): FieldError[] {
  const issues: FieldError[] = [];
  for (const key of STRING_ARRAYS) {
    const value = m[key];
    if (value !== undefined && (!Array.isArray(value) || !value.every((x) => typeof x === 'string'))) {
      issues.push({ pointer: jsonPointer([key]), detail: `${key} must be an array of strings` });
    }
  }
  const formats = m.vp_formats_supported;
  if (formats !== undefined && (formats === null || typeof formats !== 'object' || Array.isArray(formats))) {
    issues.push({ pointer: '/vp_formats_supported', detail: 'vp_formats_supported must be an object keyed by format' });
  }
  if (m.issuer !== undefined && typeof m.issuer !== 'string') issues.push({ pointer: '/issuer', detail: 'issuer must be a string' });
  const jwks = m.jwks as { keys?: unknown } | undefined;
  if (jwks !== undefined && (jwks === null || typeof jwks !== 'object' || !Array.isArray(jwks.keys))) {
    issues.push({ pointer: '/jwks', detail: 'jwks must be an object with a keys array' });
  }
  return issues;
}

const list = (m: Record<string, unknown>, key: string): string[] | undefined => m[key] as string[] | undefined;

/** Does a wallet's entry for one format share an algorithm with ours (the format's descriptor decides)? */
function formatIssue(format: string, entry: unknown, algs: SupportedAlgorithms): string | undefined {
  if (!isObject(entry)) return `vp_formats_supported.${format} must be an object`;
  return formatDescriptor(format)?.walletMetadataIssue?.(entry, algs, format);
}

/**
 * Check posted wallet metadata against the request (checklist section 2). Shape problems →
 * 'authorization.invalid_wallet_metadata'; HAIP capability mismatches → 'haip.wallet_metadata'.
 * `errors` lists each failed check. Absent (or null) optional members are not held against the
 * wallet, except the client id prefix list when `requireClientIdPrefix` is set (many wallets
 * omit it). Format algorithms are compared with `algorithms` (what we advertise; default ES256).
 */
export function checkWalletMetadata(
  raw: Record<string, unknown>,
  ctx: { haip: boolean; clientIdPrefix: string; requireClientIdPrefix: boolean; formats: string[]; algorithms?: SupportedAlgorithms },
): void {
  const metadata = normalizeWalletMetadata(raw);
  const shape = shapeIssues(metadata);
  if (shape.length > 0) throw new AuthorizerError('authorization.invalid_wallet_metadata', { errors: shape });

  const issues: FieldError[] = [];
  const prefixes = list(metadata, 'client_id_prefixes_supported') ?? list(metadata, 'client_id_schemes_supported');
  if (prefixes ? !prefixes.includes(ctx.clientIdPrefix) : ctx.requireClientIdPrefix) {
    issues.push({ pointer: '/client_id_prefixes_supported', detail: `the wallet does not list the client id prefix ${ctx.clientIdPrefix}` });
  }
  if (!ctx.haip) {
    if (issues.length > 0) throw new AuthorizerError('authorization.invalid_wallet_metadata', { message: 'The wallet metadata does not support this request.', errors: issues });
    return;
  }

  const algs = list(metadata, 'request_object_signing_alg_values_supported');
  if (algs && !algs.includes('ES256')) issues.push({ pointer: '/request_object_signing_alg_values_supported', detail: 'the wallet does not accept ES256 request objects' });
  const types = list(metadata, 'response_types_supported');
  if (types && !types.includes('vp_token')) issues.push({ pointer: '/response_types_supported', detail: 'the wallet does not support response type vp_token' });
  const modes = list(metadata, 'response_modes_supported');
  if (modes && !modes.includes('direct_post.jwt') && !modes.includes('dc_api.jwt')) issues.push({ pointer: '/response_modes_supported', detail: 'the wallet supports neither direct_post.jwt nor dc_api.jwt' });
  const encAlgs = list(metadata, 'authorization_encryption_alg_values_supported');
  if (encAlgs && !encAlgs.includes('ECDH-ES')) issues.push({ pointer: '/authorization_encryption_alg_values_supported', detail: 'the wallet does not support ECDH-ES response encryption' });
  const encs = list(metadata, 'authorization_encryption_enc_values_supported');
  if (encs && !encs.some((e) => (ENCRYPTED_RESPONSE_ENC_VALUES as readonly string[]).includes(e))) issues.push({ pointer: '/authorization_encryption_enc_values_supported', detail: 'the wallet supports neither A128GCM nor A256GCM' });

  const supported = metadata.vp_formats_supported as Record<string, unknown> | undefined;
  if (supported === undefined) {
    issues.push({ pointer: '/vp_formats_supported', detail: 'vp_formats_supported is required' });
  } else {
    for (const format of ctx.formats) {
      if (!(format in supported)) issues.push({ pointer: jsonPointer(['vp_formats_supported', format]), detail: `the wallet does not support the requested format ${format}` });
      else {
        const problem = formatIssue(format, supported[format], ctx.algorithms ?? ES256_ONLY);
        if (problem) issues.push({ pointer: jsonPointer(['vp_formats_supported', format]), detail: problem });
      }
    }
  }
  if (issues.length > 0) throw new AuthorizerError('haip.wallet_metadata', { errors: issues });
}
