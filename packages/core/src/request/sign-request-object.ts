import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { buildClientMetadata } from './client-metadata.js';
import type { SigningIdentity, SigningMaterial } from './signing-material.js';
import type { RegistrationInfoEntry } from '../config/registration-certificates.js';

/** JOSE `typ` of a request object (OpenID4VP 1.0 section 5; wallets reject anything else). */
export const REQUEST_OBJECT_TYP = 'oauth-authz-req+jwt';
/** Audience for static discovery when the wallet did not tell us its issuer. */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';
/** Redirect-flow request objects are short-lived: they are fetched right after the QR scan. */
const REDIRECT_REQUEST_LIFETIME_MS = 5 * 60_000;

const isDcApi = (record: AuthorizationRecord): boolean => record.request.responseMode === 'dc_api' || record.request.responseMode === 'dc_api.jwt';

export interface RequestObjectArgs {
  record: AuthorizationRecord;
  config: InstanceConfig;
  walletMetadata?: Record<string, unknown>;
  walletNonce?: string;
  now: number;
  /** The instance's registration certificates (verifier_info entries), merged before the request's own. */
  registrationInfo?: readonly RegistrationInfoEntry[];
  /** The verifier's accepted algorithms for vp_formats_supported (acceptedAlgorithms); default ES256. */
  algorithms?: SupportedAlgorithms;
}

/**
 * The request-object claims for a record. Redirect flows: response_uri, state, aud, and an exp
 * of at most five minutes. DC API: expected_origins and no response_uri/state/aud; exp = the
 * authorization's expiry (the object is handed out once, in the 201). `client_id` is included;
 * the multi-signed form moves it into each signature's protected header.
 */
export function requestObjectPayload(args: RequestObjectArgs): Record<string, unknown> {
  const { record, config, walletNonce, now } = args;
  // Metadata posted to request_uri wins; metadata the RP gave at creation is the fallback.
  const walletMetadata = args.walletMetadata ?? record.request.walletMetadata;
  const r = record.request;
  const dcApi = isDcApi(record);
  const payload: Record<string, unknown> = {};
  if (r.clientId !== undefined) payload.client_id = r.clientId;
  if (dcApi && r.expectedOrigins !== undefined) payload.expected_origins = r.expectedOrigins;
  payload.response_type = r.responseType;
  payload.response_mode = r.responseMode;
  if (!dcApi && r.responseUri !== undefined) payload.response_uri = r.responseUri;
  payload.nonce = r.nonce;
  if (!dcApi && r.state !== undefined) payload.state = r.state;
  if (r.query.type === 'DCQL') payload.dcql_query = r.query.dcql;
  else payload.presentation_definition = r.query.presentationDefinition;
  payload.client_metadata = buildClientMetadata(record, config, args.algorithms);
  if (r.transactionData !== undefined) payload.transaction_data = r.transactionData;
  const verifierInfo = mergeVerifierInfo(args.registrationInfo, r.verifierInfo, r.query.type === 'DCQL' ? r.query.dcql.credentials.map((c) => c.id) : undefined);
  if (verifierInfo !== undefined) payload.verifier_info = verifierInfo;
  if (r.responseType === 'vp_token id_token') {
    // SIOPv2 combined flow (OpenID4VP 1.0 section 8): the ID token needs the openid scope.
    payload.scope = 'openid';
    payload.id_token_type = 'subject_signed_id_token';
  }
  if (walletNonce !== undefined) payload.wallet_nonce = walletNonce;
  payload.iat = Math.floor(now / 1000);
  payload.exp = Math.floor((dcApi ? record.expiresAt : Math.min(record.expiresAt, now + REDIRECT_REQUEST_LIFETIME_MS)) / 1000);
  if (!dcApi) payload.aud = typeof walletMetadata?.issuer === 'string' ? walletMetadata.issuer : SELF_ISSUED_AUDIENCE;
  return payload;
}

/**
 * verifier_info of a request: the instance's registration certificates, then the entries the
 * create call gave (merged, not replaced; an entry the instance already carries is not repeated).
 * A registration certificate limited to credential queries (credential_ids) keeps only those this
 * request asks for, and is left out when it asks for none of them.
 */
export function mergeVerifierInfo(registration: readonly RegistrationInfoEntry[] | undefined, perRequest: unknown[] | undefined, credentialIds: string[] | undefined): unknown[] | undefined {
  const merged: unknown[] = [];
  const carried = new Set<string>();
  for (const entry of registration ?? []) {
    carried.add(entry.data);
    if (!entry.credential_ids) {
      merged.push(entry);
      continue;
    }
    const ids = entry.credential_ids.filter((id) => credentialIds?.includes(id));
    if (ids.length > 0) merged.push({ ...entry, credential_ids: ids });
  }
  for (const entry of perRequest ?? []) {
    const { format, data } = entry as { format?: unknown; data?: unknown };
    if (format === 'registration_cert' && typeof data === 'string' && carried.has(data)) continue;
    merged.push(entry);
  }
  return merged.length > 0 ? merged : undefined;
}

/**
 * The protected header depends on the signing identity only, and its x5c chain is most of a
 * request object's size: encode it once per identity. Re-encoded if the material's alg or chain
 * is replaced.
 */
const encodedHeaders = new WeakMap<SigningMaterial, { alg: string; x5c: readonly string[]; encoded: string }>();
function encodedHeader(signing: SigningMaterial): string {
  const cached = encodedHeaders.get(signing);
  if (cached && cached.alg === signing.alg && cached.x5c === signing.x5c) return cached.encoded;
  const encoded = Buffer.from(JSON.stringify({ alg: signing.alg, typ: REQUEST_OBJECT_TYP, x5c: signing.x5c })).toString('base64url');
  encodedHeaders.set(signing, { alg: signing.alg, x5c: signing.x5c, encoded });
  return encoded;
}

/** Request objects up to this size are encoded in one kept buffer (see signRequestObject). */
const SCRATCH_BYTES = 64 * 1024;
const scratch = Buffer.alloc(SCRATCH_BYTES);

/**
 * The signed request object (JAR, compact JWS) served at `…/authorizations/{id}/jwt`. A key held in
 * this process signs synchronously from a kept buffer; any other RequestSigner gets the signing
 * input as its own bytes and is awaited (bounded by its timeout, see SigningMaterial.sign).
 */
export async function signRequestObject(args: RequestObjectArgs & { signing: SigningMaterial }): Promise<string> {
  const header = encodedHeader(args.signing);
  const json = JSON.stringify(requestObjectPayload(args));
  const { signSync } = args.signing;
  if (!signSync) {
    const payload = Buffer.from(json).toString('base64url');
    const signature = await args.signing.sign(Buffer.from(`${header}.${payload}`, 'latin1'));
    return `${header}.${payload}.${Buffer.from(signature).toString('base64url')}`;
  }
  // Encoded through fresh Buffers, a request object (a few KiB) took a new 8 KiB pool slab every
  // other request; a kept scratch buffer serves instead. All below is synchronous, so no other
  // request can use it meanwhile, and it is zeroed after use (the payload carries nonce and state).
  const jsonBytes = Buffer.byteLength(json);
  const inputBytes = header.length + 1 + Math.ceil(jsonBytes / 3) * 4;
  const buffer = inputBytes <= SCRATCH_BYTES ? scratch : Buffer.allocUnsafeSlow(inputBytes);
  try {
    buffer.write(json, 0, 'utf8');
    const payload = buffer.toString('base64url', 0, jsonBytes);
    const written = buffer.write(`${header}.${payload}`, 0, 'latin1');
    const signature = signSync(buffer.subarray(0, written));
    return `${header}.${payload}.${Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64url')}`;
  } finally {
    buffer.fill(0, 0, Math.min(inputBytes, buffer.length));
  }
}

/** JWS JSON general serialization of a multi-signed DC API request (OpenID4VP 1.0 appendix A.3.2). */
export interface MultiSignedRequest {
  payload: string;
  signatures: { protected: string; signature: string }[];
}

/**
 * Multi-signed DC API request: client_id and verifier_info live only in each signature's
 * protected header, never in the shared payload. One signature per signing identity, each with
 * its own client_id and x5c, so a wallet that trusts any one of them can verify the request.
 */
export async function signMultiSignedRequestObject(args: RequestObjectArgs & { signers: SigningIdentity[] }): Promise<MultiSignedRequest> {
  if (args.signers.length === 0) throw new TypeError('signMultiSignedRequestObject needs at least one signing identity');
  // The record's client_id is the primary's; each signature names its own instead.
  const { client_id: _primary, verifier_info: verifierInfo, ...payload } = requestObjectPayload(args);
  const encodedPayload = Buffer.from(JSON.stringify(payload)).toString('base64url');
  // RFC 7515 section 7.2.1: each signature covers its own protected header and the shared payload.
  const signatures = await Promise.all(
    args.signers.map(async ({ material, clientId }) => {
      const header = { alg: material.alg, typ: REQUEST_OBJECT_TYP, x5c: [...material.x5c], client_id: clientId, ...(verifierInfo !== undefined ? { verifier_info: verifierInfo } : {}) };
      const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
      const signature = await material.sign(Buffer.from(`${encodedHeader}.${encodedPayload}`, 'latin1'));
      return { protected: encodedHeader, signature: Buffer.from(signature).toString('base64url') };
    }),
  );
  return { payload: encodedPayload, signatures };
}
