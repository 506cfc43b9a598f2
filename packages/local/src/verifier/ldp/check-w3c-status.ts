import { readBitstringStatus } from '../../status-list/bitstring.js';
import { StatusListError } from '../../status-list/status-list-error.js';
import { isRecord } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifierContext } from '../verifier-context.js';
import { W3C_STATUS_MECHANISMS, type W3cStatusEntryType } from './w3c-status-lists.js';

/** Status purposes whose non-zero status refuses the credential. */
const REFUSING = { revocation: 'status.revoked', suspension: 'status.suspended' } as const;
type Purpose = keyof typeof REFUSING | 'message';
const MAX_ENTRIES = 4;
/** Bitstring Status List 1.0: a list holds at least 131,072 entries of `statusSize` bits. */
const MIN_LIST_ENTRIES = 131_072;
/** Widest status read: 2^8 messages per entry already; wider entries are refused as unsupported. */
const MAX_STATUS_SIZE = 8;

interface StatusEntry {
  type: W3cStatusEntryType;
  purpose: Purpose;
  uri: string;
  idx: number;
  size: number;
  /** `statusMessage` by status value, when the entry has one. */
  messages?: Map<number, string>;
}

const malformed = (message: string) => new PolicyFailure('status.unavailable', message);

/** `statusMessage`: one `{ status: "0x…", message }` per value `size` bits can take, each value once. */
function parseMessages(raw: unknown, size: number): Map<number, string> {
  const count = 2 ** size;
  if (!Array.isArray(raw) || raw.length !== count) throw malformed(`statusMessage must list the ${count} values a statusSize of ${size} can take`);
  const messages = new Map<number, string>();
  for (const item of raw) {
    const status = isRecord(item) && typeof item.status === 'string' && /^0x[0-9a-fA-F]{1,4}$/.test(item.status) ? Number.parseInt(item.status.slice(2), 16) : Number.NaN;
    if (!isRecord(item) || typeof item.message !== 'string' || !(status < count) || messages.has(status)) throw malformed('Each statusMessage entry must have a distinct hexadecimal status within statusSize and a message');
    messages.set(status, item.message);
  }
  return messages;
}

function parseEntry(entry: unknown): StatusEntry {
  if (!isRecord(entry)) throw malformed('A credentialStatus entry is not a JSON object');
  const type = entry.type;
  if (typeof type !== 'string' || !Object.hasOwn(W3C_STATUS_MECHANISMS, type)) {
    throw new PolicyFailure('status.unsupported', 'Only the BitstringStatusListEntry and StatusList2021Entry status mechanisms are supported');
  }
  const purpose = entry.statusPurpose;
  const bitstring = type === 'BitstringStatusListEntry';
  if (purpose !== 'revocation' && purpose !== 'suspension' && !(purpose === 'message' && bitstring)) {
    throw new PolicyFailure('status.unsupported', `Only the revocation and suspension status purposes${bitstring ? ' and status messages' : ''} are checked`);
  }
  // statusSize (Bitstring Status List only): bits per entry, 1 when absent; wider entries carry their messages.
  const size = entry.statusSize ?? 1;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw malformed('statusSize must be an integer greater than zero');
  if (size > 1 && !bitstring) throw new PolicyFailure('status.unsupported', 'StatusList2021 entries have one bit');
  if (size > MAX_STATUS_SIZE) throw new PolicyFailure('status.unsupported', `Status entries wider than ${MAX_STATUS_SIZE} bits are not read`);
  if (size > 1 && entry.statusMessage === undefined) throw malformed('An entry with a statusSize above 1 must have a statusMessage');
  const messages = entry.statusMessage === undefined ? undefined : parseMessages(entry.statusMessage, size);
  if (purpose === 'message' && messages === undefined) throw malformed('A message entry must have a statusMessage');
  const raw = entry.statusListIndex;
  const idx = typeof raw === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : Number.NaN;
  if (!Number.isSafeInteger(idx) || idx < 0) throw malformed('statusListIndex is not a non-negative integer');
  if (typeof entry.statusListCredential !== 'string') throw malformed('statusListCredential is not a URL');
  return { type: type as W3cStatusEntryType, purpose, uri: entry.statusListCredential, idx, size, ...(messages ? { messages } : {}) };
}

const hex = (value: number) => `0x${value.toString(16)}`;

/**
 * The W3C `credentialStatus` of a verified credential (Bitstring Status List 1.0, StatusList2021):
 * every revocation, suspension and message entry is checked against its status list credential,
 * which must verify and be issued by the credential's own issuer. A non-zero revocation or
 * suspension status refuses the credential; a message status is reported with its message.
 * Result data as for the Token Status List.
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
      if (list.bits.length * 8 < MIN_LIST_ENTRIES * entry.size) throw new StatusListError('status.unavailable', `The status list holds fewer than ${MIN_LIST_ENTRIES} entries of ${entry.size} bits`);
      value = readBitstringStatus(list.bits, entry.idx, entry.size);
    } catch (error) {
      if (error instanceof StatusListError) throw new PolicyFailure(error.code, error.message);
      throw error;
    }
    const message = entry.messages?.get(value);
    if (value !== 0 && entry.purpose !== 'message') throw new PolicyFailure(REFUSING[entry.purpose], message === undefined ? undefined : `Status ${hex(value)}: ${message.slice(0, 200)}`);
    checked.push({ uri: entry.uri, idx: entry.idx, purpose: entry.purpose, type: entry.type, ...(entry.size > 1 || entry.messages ? { size: entry.size, value: hex(value), ...(message === undefined ? {} : { message }) } : {}) });
  }
  return checked.length === 1 ? { status: 'valid', ...checked[0] } : { status: 'valid', entries: checked };
}
