import { OutboundFetchError } from '@vp-authorizer/core';
import { outboundGet } from '@vp-authorizer/core/internal';
import { verifyDataIntegrityProof } from '../../data-integrity/verify-data-integrity-proof.js';
import { decodeBitstring } from '../../status-list/bitstring.js';
import { StatusListError } from '../../status-list/status-list-error.js';
import { isRecord } from '../encoding.js';
import { verifyJwtCredential } from '../jwt-vc/verify-jwt-credential.js';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifierContext } from '../verifier-context.js';
import { dataIntegrityEnvironment } from './data-integrity-environment.js';

/** The W3C status list mechanisms: the list credential and subject types, how encodedList is written. */
export const W3C_STATUS_MECHANISMS = {
  BitstringStatusListEntry: { credentialType: 'BitstringStatusListCredential', subjectType: 'BitstringStatusList', multibase: true },
  StatusList2021Entry: { credentialType: 'StatusList2021Credential', subjectType: 'StatusList2021', multibase: false },
} as const;
export type W3cStatusEntryType = keyof typeof W3C_STATUS_MECHANISMS;

/** A verified status list credential, as cached. */
export interface W3cStatusList {
  entryType: W3cStatusEntryType;
  issuer: string;
  purposes: string[];
  bits: Uint8Array;
  expiresAt: number;
}

/** Without a `ttl`, a list is trusted this long (Bitstring Status List 1.0: caching is up to the verifier). */
const DEFAULT_TTL_MS = 300_000;
const MAX_ENTRIES = 1_000;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const unavailable = (message: string) => new StatusListError('status.unavailable', message);
const idOf = (value: unknown): unknown => (isRecord(value) ? value.id : value);
const typesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const failureText = (error: unknown) => (error instanceof PolicyFailure ? `${error.code}${error.detail ? `: ${error.detail}` : ''}` : 'verification failed');

/** A status list credential secured with Data Integrity: the same verification as any credential. */
async function verifiedDataIntegrityList(document: Record<string, unknown>, ctx: VerifierContext): Promise<{ credential: Record<string, unknown>; issuer: string }> {
  try {
    const proof = await verifyDataIntegrityProof(document, { term: 'assertionMethod' }, dataIntegrityEnvironment(ctx));
    if (idOf(document.issuer) !== proof.controller) throw new PolicyFailure('proof.issuer_mismatch');
    return { credential: document, issuer: proof.controller };
  } catch (error) {
    if (error instanceof PolicyFailure) throw unavailable(`The status list credential does not verify (${failureText(error)})`);
    throw error;
  }
}

/** A status list credential secured as a JWT (VC-JOSE-COSE, or a VCDM 1.1 `vc` claim): the JWT VC checks. */
async function verifiedJwtList(jwt: string, ctx: VerifierContext): Promise<{ credential: Record<string, unknown>; issuer: string }> {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw unavailable('The status list JWT payload is not JSON');
  }
  const dataModel = isRecord(payload.vc) ? '1.1' : '2.0';
  const { results, verified } = await verifyJwtCredential(jwt, dataModel, [], ctx, { checkStatus: false });
  const failure = results.find((r) => r.error && r.policy !== 'status');
  if (!verified || failure) throw unavailable(`The status list credential does not verify (${failure?.error?.code ?? 'proof'})`);
  const issuer = idOf(verified.payload.iss ?? verified.credential.issuer);
  if (typeof issuer !== 'string') throw unavailable('The status list credential has no issuer');
  return { credential: verified.credential, issuer };
}

/**
 * Fetches, verifies and caches W3C status list credentials (Bitstring Status List and its
 * predecessor StatusList2021) by URL, through the outbound fetch policy. Cached until the
 * list's `ttl` (default 5 minutes) or `validUntil`, whichever comes first.
 */
export class W3cStatusLists {
  readonly #cache = new Map<string, W3cStatusList>();

  async get(uri: string, entryType: W3cStatusEntryType, ctx: VerifierContext): Promise<W3cStatusList> {
    const hit = this.#cache.get(uri);
    if (hit && hit.expiresAt > ctx.now && hit.entryType === entryType) return hit;
    this.#cache.delete(uri);
    const list = await this.#fetchAndVerify(uri, entryType, ctx);
    if (list.expiresAt > ctx.now) {
      if (this.#cache.size >= MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(uri, list);
    }
    return list;
  }

  async #fetchAndVerify(uri: string, entryType: W3cStatusEntryType, ctx: VerifierContext): Promise<W3cStatusList> {
    let body: Uint8Array;
    try {
      ({ body } = await outboundGet(uri, { accept: 'application/vc+ld+json, application/vc+jwt, application/vc, application/ld+json, application/jwt, application/json', timeoutMs: ctx.options.statusList.timeoutMs, maxBytes: ctx.options.statusList.maxBytes, signal: ctx.signal }, ctx.options.outboundPolicy));
    } catch (error) {
      // The reason is ours (policy, limit, failure class), never what the remote host answered.
      if (error instanceof OutboundFetchError) throw unavailable(`The status list could not be fetched: ${error.message}`);
      throw error;
    }
    const text = new TextDecoder().decode(body).trim();
    let secured: { credential: Record<string, unknown>; issuer: string };
    if (JWT.test(text)) secured = await verifiedJwtList(text, ctx);
    else {
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch {
        throw unavailable('The status list response is neither JSON nor a JWT');
      }
      if (!isRecord(document)) throw unavailable('The status list credential is not a JSON object');
      secured = await verifiedDataIntegrityList(document, ctx);
    }
    const { credential, issuer } = secured;
    const mechanism = W3C_STATUS_MECHANISMS[entryType];
    if (!typesOf(credential.type).includes(mechanism.credentialType)) throw unavailable(`The status list credential is not a ${mechanism.credentialType}`);
    const subject = credential.credentialSubject;
    if (!isRecord(subject) || !typesOf(subject.type).includes(mechanism.subjectType)) throw unavailable(`The status list credential subject is not a ${mechanism.subjectType}`);
    const skew = ctx.options.clockSkewMs;
    const validFrom = Date.parse(String(credential.validFrom ?? credential.issuanceDate ?? ''));
    const validUntil = Date.parse(String(credential.validUntil ?? credential.expirationDate ?? ''));
    if (!Number.isNaN(validFrom) && validFrom > ctx.now + skew) throw unavailable('The status list credential is not yet valid');
    if (!Number.isNaN(validUntil) && validUntil + skew <= ctx.now) throw unavailable('The status list credential has expired');
    const purposes = typesOf(subject.statusPurpose).filter((p): p is string => typeof p === 'string');
    if (purposes.length === 0) throw unavailable('The status list has no statusPurpose');
    const bits = decodeBitstring(subject.encodedList, mechanism.multibase);
    const ttl = typeof subject.ttl === 'number' && Number.isFinite(subject.ttl) && subject.ttl >= 0 ? subject.ttl : DEFAULT_TTL_MS;
    const expiresAt = Math.min(ctx.now + ttl, Number.isNaN(validUntil) ? Number.POSITIVE_INFINITY : validUntil);
    return { entryType, issuer, purposes, bits, expiresAt };
  }
}
