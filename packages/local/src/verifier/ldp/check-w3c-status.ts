import { readBitstringStatus } from '../../status-list/bitstring.js';
import { StatusListError } from '../../status-list/status-list-error.js';
import { isRecord } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifierContext } from '../verifier-context.js';
import { W3C_STATUS_MECHANISMS, type W3cStatusEntryType } from './w3c-status-lists.js';

/** Status purposes whose bit decides acceptance; `refresh`, `message` and others do not. */
const PURPOSES = { revocation: 'status.revoked', suspension: 'status.suspended' } as const;
const MAX_ENTRIES = 4;

interface StatusEntry {
  type: W3cStatusEntryType;
  purpose: keyof typeof PURPOSES;
  uri: string;
  idx: number;
}

function parseEntry(entry: unknown): StatusEntry {
  if (!isRecord(entry)) throw new PolicyFailure('status.unavailable', 'A credentialStatus entry is not a JSON object');
  const type = entry.type;
  if (typeof type !== 'string' || !Object.hasOwn(W3C_STATUS_MECHANISMS, type)) {
    throw new PolicyFailure('status.unsupported', 'Only the BitstringStatusListEntry and StatusList2021Entry status mechanisms are supported');
  }
  const purpose = entry.statusPurpose;
  if (purpose !== 'revocation' && purpose !== 'suspension') throw new PolicyFailure('status.unsupported', 'Only the revocation and suspension status purposes are checked');
  // statusSize (Bitstring Status List): one bit for revocation and suspension.
  if (entry.statusSize !== undefined && entry.statusSize !== 1) throw new PolicyFailure('status.unsupported', 'A revocation or suspension entry must have a statusSize of 1');
  const raw = entry.statusListIndex;
  const idx = typeof raw === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : Number.NaN;
  if (!Number.isSafeInteger(idx) || idx < 0) throw new PolicyFailure('status.unavailable', 'statusListIndex is not a non-negative integer');
  if (typeof entry.statusListCredential !== 'string') throw new PolicyFailure('status.unavailable', 'statusListCredential is not a URL');
  return { type: type as W3cStatusEntryType, purpose, uri: entry.statusListCredential, idx };
}

/**
 * The W3C `credentialStatus` of a verified credential (Bitstring Status List 1.0, StatusList2021):
 * every revocation and suspension entry is checked against its status list credential, which must
 * verify and be issued by the credential's own issuer. Result data as for the Token Status List.
 */
export async function checkW3cStatus(credential: Record<string, unknown>, issuer: string, ctx: VerifierContext): Promise<Record<string, unknown>> {
  const raw = credential.credentialStatus;
  const entries = (Array.isArray(raw) ? raw : [raw]).map(parseEntry);
  if (entries.length > MAX_ENTRIES) throw new PolicyFailure('status.unavailable', `A credential may have at most ${MAX_ENTRIES} status entries`);
  if (!ctx.options.statusList.enabled) return { checked: false, reason: 'status list checks are disabled' };
  const checked: Record<string, unknown>[] = [];
  for (const entry of entries) {
    let value: number;
    try {
      const list = await ctx.w3cStatusLists.get(entry.uri, entry.type, ctx);
      // One issuer cannot publish the status of another's credentials.
      if (list.issuer !== issuer) throw new StatusListError('status.unavailable', 'The status list credential is not issued by the issuer of the credential');
      if (!list.purposes.includes(entry.purpose)) throw new StatusListError('status.unavailable', `The status list is not a ${entry.purpose} list`);
      value = readBitstringStatus(list.bits, entry.idx, 1);
    } catch (error) {
      if (error instanceof StatusListError) throw new PolicyFailure(error.code, error.message);
      throw error;
    }
    if (value === 1) throw new PolicyFailure(PURPOSES[entry.purpose]);
    checked.push({ uri: entry.uri, idx: entry.idx, purpose: entry.purpose, type: entry.type });
  }
  return checked.length === 1 ? { status: 'valid', ...checked[0] } : { status: 'valid', entries: checked };
}
