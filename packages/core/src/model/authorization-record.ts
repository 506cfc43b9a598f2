import * as v from 'valibot';
import type { ExtractedCredential } from './extracted-credential.js';
import type { PolicyError, PolicyResult } from './policy-result.js';

/** Every status an authorization can have; the terminal ones never change. */
export const authorizationStatusSchema = v.picklist(['created', 'pending', 'authorized', 'rejected', 'error', 'expired']);
export type AuthorizationStatus = v.InferOutput<typeof authorizationStatusSchema>;
/** The statuses a finished authorization can have: what dc_api and resolve answer. */
export const terminalStatusSchema = v.picklist(['authorized', 'rejected', 'error', 'expired']);
export const TERMINAL_STATUSES: readonly AuthorizationStatus[] = terminalStatusSchema.options;
export const isTerminalStatus = (status: AuthorizationStatus): boolean => TERMINAL_STATUSES.includes(status);

export type ResponseMode = 'direct_post' | 'direct_post.jwt' | 'dc_api' | 'dc_api.jwt';
export type ResponseType = 'vp_token' | 'vp_token id_token';
/** DC API protocols: OpenID4VP 1.0 appendix A, and ISO/IEC 18013-7 Annex C (`org-iso-mdoc`). */
export type DcApiProtocol = 'openid4vp-v1-unsigned' | 'openid4vp-v1-signed' | 'openid4vp-v1-multisigned' | 'org-iso-mdoc';

export type { AuthorizationQuery, DcqlCredentialQuery, DcqlQuery, PresentationDefinition } from './authorization-query.js';
import type { AuthorizationQuery } from './authorization-query.js';

/** What the relying party asked for, frozen at creation. */
export interface AuthorizationRequestParameters {
  query: AuthorizationQuery;
  responseMode: ResponseMode;
  responseType: ResponseType;
  nonce: string;
  /** Sent in redirect flows; absent for the DC API. */
  state?: string;
  /** Full client_id with its prefix (for example `x509_hash:...`); absent for unsigned DC API requests. */
  clientId?: string;
  profile?: 'haip';
  /** The (first) DC API protocol offered. */
  protocol?: DcApiProtocol;
  /** Every DC API protocol offered, in the order given, when more than one was. */
  protocols?: DcApiProtocol[];
  expectedOrigins?: string[];
  transactionData?: string[];
  verifierInfo?: unknown[];
  walletMetadata?: Record<string, unknown>;
  /** Where the wallet is sent after a direct_post response; the response code is appended. */
  redirectUri?: string;
  /** Absolute response_uri (direct_post modes). */
  responseUri?: string;
  /** Where status webhooks of this authorization go, when the create request named a URL (else the instance's). */
  webhookUrl?: string;
}

/** Per-request ECDH-ES P-256 key for encrypted responses. The private part never leaves the store. */
export interface EncryptionKeyRecord {
  kid: string;
  alg: 'ECDH-ES';
  publicJwk: JsonWebKey & { kid: string; alg: string; use?: string };
  privateJwk: JsonWebKey;
}

/**
 * The org-iso-mdoc (ISO/IEC 18013-7 Annex C) request of one authorization: the EncryptionInfo as
 * handed out (base64url CBOR; the SessionTranscript hashes this text) and the private part of its
 * fresh P-256 recipient key. Kept like `encryptionKey`: never logged, dropped at the terminal status.
 */
export interface AnnexCRecipientRecord {
  encryptionInfo: string;
  privateJwk: JsonWebKey;
}

/**
 * One authorization. Stores persist it as an opaque JSON value; `version` drives compare-and-set
 * and starts at 1. Timestamps are epoch milliseconds.
 */
export interface AuthorizationRecord {
  id: string;
  instanceId: string;
  version: number;
  status: AuthorizationStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  request: AuthorizationRequestParameters;
  encryptionKey?: EncryptionKeyRecord;
  annexC?: AnnexCRecipientRecord;
  /**
   * Set atomically when a wallet response is claimed for processing. Cleared again only when
   * processing could not finish because the store failed (so the wallet's retry starts afresh).
   */
  responseClaimedAt?: number;
  /**
   * Deadline of that claim: a claim that has not stored a terminal status by then is considered
   * abandoned (the record becomes `error`). The later of the processing deadline (claim time +
   * policy timeouts + margin) and `expiresAt` (until then a response may take over a claim whose
   * lease ran out); present exactly when `responseClaimedAt` is.
   */
  claimExpiresAt?: number;
  /** Who holds the claim: random per claim (claim-lease.ts). Absent on records claimed before leases existed. */
  claimHolder?: string;
  /**
   * Until when the holder's lease runs (epoch ms): renewed while the response is processed, never
   * past the processing deadline. Once passed, a response for this authorization is claimed afresh
   * by whichever process receives it. Absent on records claimed before leases existed (their
   * lease is `claimExpiresAt`).
   */
  leaseExpiresAt?: number;
  policyResults: PolicyResult[];
  credentials: ExtractedCredential[];
  error?: PolicyError;
  /**
   * When the disclosed data of this terminal record is due for erasure (the instance's
   * `dataRetention`); the sweep finds the record by this time (see `sweepDueAt`). Absent when no
   * retention window applies, and once the data is erased.
   */
  eraseAt?: number;
  /** When the relying party first read the claims or policy results (recorded only under `dataRetention.afterRead`). */
  firstReadAt?: number;
  /**
   * When the disclosed data was erased (claims, credentials, policy-result data, problem details,
   * wallet metadata); the outcome, status and timings remain. Erased data never comes back.
   */
  erasedAt?: number;
  /**
   * Set (by compare-and-set, status unchanged) by the one resolve of this authorization's response
   * code that wins, before the code is consumed: `at` (epoch ms), and `keyHash` when that resolve
   * carried an `Idempotency-Key` (so that a retry with the same key after a lost reply is answered
   * again, within a short window); `void` when the code turned out consumed by someone else.
   */
  responseCodeResolved?: { at: number; keyHash?: string; void?: true };
}

/**
 * When the sweep must look at a non-terminal record: the claim's deadline while a response is
 * being processed, else the authorization's expiry. Stores index records by this time.
 */
export const expiryDueAt = (record: AuthorizationRecord): number => record.claimExpiresAt ?? record.expiresAt;

/**
 * When the sweep must look at a record, or undefined when it never must: a non-terminal record at
 * `expiryDueAt`, a terminal one at `eraseAt` (its disclosed data is due for erasure). Stores keep
 * exactly the records with a time here in their due-time index, ordered by it.
 */
export const sweepDueAt = (record: AuthorizationRecord): number | undefined => (isTerminalStatus(record.status) ? record.eraseAt : expiryDueAt(record));

/** When the lease of a claimed record runs out (records claimed before leases existed: their claim deadline). */
export const leaseExpiry = (record: AuthorizationRecord): number | undefined =>
  record.responseClaimedAt === undefined ? undefined : (record.leaseExpiresAt ?? record.claimExpiresAt);

/** True while a wallet response is claimed and its holder's lease has not run out. */
export function isLeaseLive(record: AuthorizationRecord, now: number): boolean {
  if (isTerminalStatus(record.status)) return false;
  const until = leaseExpiry(record);
  return until !== undefined && now < until;
}

/** The DC API protocols an authorization offered, in order (one for most). */
export const offeredProtocols = (request: AuthorizationRequestParameters): DcApiProtocol[] =>
  request.protocols ?? (request.protocol !== undefined ? [request.protocol] : []);
