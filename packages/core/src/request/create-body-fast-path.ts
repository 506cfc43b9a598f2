import type { CreateAuthorizationBody } from './create-authorization-body.js';
import { DCQL_ID_PATTERN } from '../model/dcql-id-pattern.js';
import { NONCE_PATTERN, isHttpUrl } from './create-body-rules.js';

/**
 * The create body most callers send (a direct_post mode with a DCQL query of credential queries
 * and claim paths), checked and built exactly as `createAuthorizationBodySchema` builds its output:
 * members in the schema's order, present-but-undefined optional members kept, unknown members of
 * the DCQL objects kept and of the others dropped, object-valued members (`meta`,
 * `walletMetadata`) by reference. Anything else, every invalid body among it, answers undefined
 * and goes through the schema, which stays the one definition of what is accepted and of every
 * error message; this only spares the schema's generic walk (the larger part of a create's
 * validation) on the bodies it recognises. `create-body-fast-path.test.ts` compares both.
 */
export function parseCommonCreateBody(input: Record<string, unknown>): CreateAuthorizationBody | undefined {
  const mode = input.responseMode;
  if (mode !== 'direct_post' && mode !== 'direct_post.jwt') return undefined;
  const out: Record<string, unknown> = {};
  if ('nonce' in input) {
    const nonce = input.nonce;
    if (nonce !== undefined && (typeof nonce !== 'string' || !NONCE_PATTERN.test(nonce))) return undefined;
    out.nonce = nonce;
  }
  if ('profile' in input) {
    const profile = input.profile;
    if (profile !== undefined && profile !== 'haip') return undefined;
    out.profile = profile;
  }
  // Rarer members with more rules of their own: the schema handles them.
  if ('transaction_data' in input || 'responseTypeParameters' in input) return undefined;
  if ('walletMetadata' in input) {
    const metadata = input.walletMetadata;
    if (metadata !== undefined && !isPlainObject(metadata)) return undefined;
    out.walletMetadata = metadata;
  }
  if ('webhookUrl' in input) {
    const url = input.webhookUrl;
    if (url !== undefined && (typeof url !== 'string' || url.length > 2048)) return undefined;
    out.webhookUrl = url;
  }
  out.responseMode = mode;
  const responseType = 'responseType' in input ? input.responseType : undefined;
  if (responseType === undefined) out.responseType = 'vp_token';
  else if (responseType === 'vp_token' || responseType === 'vp_token id_token') out.responseType = responseType;
  else return undefined;
  if (!('query' in input)) return undefined;
  const query = input.query;
  if (!isPlainObject(query) || !('type' in query) || query.type !== 'DCQL' || !('dcql' in query)) return undefined;
  const dcql = dcqlQuery(query.dcql);
  if (dcql === undefined) return undefined;
  out.query = { type: 'DCQL', dcql };
  if ('redirectUri' in input) {
    const uri = input.redirectUri;
    if (uri !== undefined && (typeof uri !== 'string' || !isHttpUrl(uri))) return undefined;
    out.redirectUri = uri;
  }
  return out as unknown as CreateAuthorizationBody;
}

function dcqlQuery(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !('credentials' in value) || 'credential_sets' in value) return undefined;
  const credentials = value.credentials;
  if (!Array.isArray(credentials) || credentials.length === 0) return undefined;
  const copied: Record<string, unknown>[] = [];
  for (let i = 0; i < credentials.length; i++) {
    const out = credentialQuery(credentials[i]);
    if (out === undefined) return undefined;
    copied.push(out);
  }
  return withUnknownMembers({ credentials: copied }, value, DCQL_QUERY_MEMBERS);
}

function credentialQuery(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !('id' in value) || !('format' in value)) return undefined;
  if ('trusted_authorities' in value || 'claim_sets' in value) return undefined;
  const { id, format } = value;
  if (typeof id !== 'string' || !DCQL_ID_PATTERN.test(id) || typeof format !== 'string' || format.length === 0) return undefined;
  const out: Record<string, unknown> = { id, format };
  if ('multiple' in value) {
    const multiple = value.multiple;
    if (multiple !== undefined && typeof multiple !== 'boolean') return undefined;
    out.multiple = multiple;
  }
  if ('meta' in value) {
    const meta = value.meta;
    if (meta !== undefined && !isPlainObject(meta)) return undefined;
    out.meta = meta;
  }
  if ('require_cryptographic_holder_binding' in value) {
    const binding = value.require_cryptographic_holder_binding;
    if (binding !== undefined && typeof binding !== 'boolean') return undefined;
    out.require_cryptographic_holder_binding = binding;
  }
  if ('claims' in value) {
    const claims = value.claims;
    if (claims === undefined) out.claims = undefined;
    else {
      if (!Array.isArray(claims) || claims.length === 0) return undefined;
      const copied: Record<string, unknown>[] = [];
      for (let i = 0; i < claims.length; i++) {
        const c = claimQuery(claims[i]);
        if (c === undefined) return undefined;
        copied.push(c);
      }
      out.claims = copied;
    }
  }
  return withUnknownMembers(out, value, CREDENTIAL_QUERY_MEMBERS);
}

function claimQuery(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !('path' in value)) return undefined;
  const out: Record<string, unknown> = {};
  if ('id' in value) {
    const id = value.id;
    if (id !== undefined && (typeof id !== 'string' || !DCQL_ID_PATTERN.test(id))) return undefined;
    out.id = id;
  }
  const path = value.path;
  if (!Array.isArray(path) || path.length === 0) return undefined;
  // By index, each element read once and copied as checked (the schema reads arrays the same way).
  const pathCopy: unknown[] = [];
  for (let i = 0; i < path.length; i++) {
    const segment: unknown = path[i];
    if (!(typeof segment === 'string' || segment === null || (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0))) return undefined;
    pathCopy.push(segment);
  }
  out.path = pathCopy;
  if ('values' in value) {
    const values = value.values;
    if (values === undefined) out.values = undefined;
    else {
      if (!Array.isArray(values) || values.length === 0) return undefined;
      const valuesCopy: unknown[] = [];
      for (let i = 0; i < values.length; i++) {
        const v: unknown = values[i];
        if (!(typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v)))) return undefined;
        valuesCopy.push(v);
      }
      out.values = valuesCopy;
    }
  }
  if ('intent_to_retain' in value) {
    const retain = value.intent_to_retain;
    if (retain !== undefined && typeof retain !== 'boolean') return undefined;
    out.intent_to_retain = retain;
  }
  return withUnknownMembers(out, value, CLAIM_QUERY_MEMBERS);
}

const DCQL_QUERY_MEMBERS = new Set(['credentials', 'credential_sets']);
const CREDENTIAL_QUERY_MEMBERS = new Set(['id', 'format', 'multiple', 'meta', 'trusted_authorities', 'require_cryptographic_holder_binding', 'claims', 'claim_sets']);
const CLAIM_QUERY_MEMBERS = new Set(['id', 'path', 'values', 'intent_to_retain']);

/** A loose object's unknown members, kept by reference after the known ones (as the schema keeps them). */
function withUnknownMembers(out: Record<string, unknown>, input: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> {
  for (const key in input) {
    if (!Object.hasOwn(input, key) || known.has(key) || key === '__proto__' || key === 'prototype' || key === 'constructor') continue;
    out[key] = input[key];
  }
  return out;
}

/** A non-null, non-array object (what the schema's object checks and `plainObject` accept). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
