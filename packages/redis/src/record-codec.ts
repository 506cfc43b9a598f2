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

export function decodeCode(raw: string): ResponseCodeEntry {
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
