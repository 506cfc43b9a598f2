import type { CreateAuthorizationBody } from './create-authorization-body.js';
import { DCQL_ID_PATTERN } from '../model/dcql-id-pattern.js';
import { NONCE_PATTERN, isHttpUrl } from './create-body-rules.js';
import { hasCredentials, hasUnsafeCharacters } from '../config/redirect-uri.js';

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
  if (!copyOptional(input, out, 'nonce', isNonce) || !copyOptional(input, out, 'profile', isHaip)) return undefined;
  // Rarer members with more rules of their own: the schema handles them.
  if ('transaction_data' in input || 'responseTypeParameters' in input) return undefined;
  if (!copyOptional(input, out, 'walletMetadata', isPlainObject) || !copyOptional(input, out, 'webhookUrl', isWebhookUrl)) return undefined;
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
  if (!copyOptional(input, out, 'redirectUri', isHttpUrlString)) return undefined;
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
  if (!copyOptional(value, out, 'multiple', isBoolean) || !copyOptional(value, out, 'meta', isPlainObject) || !copyOptional(value, out, 'require_cryptographic_holder_binding', isBoolean)) return undefined;
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
  if (!copyOptional(value, out, 'id', isDcqlId)) return undefined;
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
  if (!copyOptional(value, out, 'intent_to_retain', isBoolean)) return undefined;
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

/**
 * An optional member as the schema takes it: absent stays absent, present-but-undefined is kept,
 * anything else must pass `valid`. Read once, so what is copied is what was checked. False: not
 * a body this path builds.
 */
function copyOptional(input: Record<string, unknown>, out: Record<string, unknown>, name: string, valid: (value: unknown) => boolean): boolean {
  if (!(name in input)) return true;
  const value = input[name];
  if (value !== undefined && !valid(value)) return false;
  out[name] = value;
  return true;
}

const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isNonce = (value: unknown): boolean => typeof value === 'string' && NONCE_PATTERN.test(value);
const isHaip = (value: unknown): boolean => value === 'haip';
const isWebhookUrl = (value: unknown): boolean => typeof value === 'string' && value.length <= 2048;
const isHttpUrlString = (value: unknown): boolean => typeof value === 'string' && isHttpUrl(value) && !hasCredentials(value) && !hasUnsafeCharacters(value);
const isDcqlId = (value: unknown): boolean => typeof value === 'string' && DCQL_ID_PATTERN.test(value);

/** A non-null, non-array object (what the schema's object checks and `plainObject` accept). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
