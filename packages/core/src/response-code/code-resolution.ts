import * as v from 'valibot';
import { sha256Base64url } from '../crypto/secrets.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';

/**
 * How long a resolve carrying an `Idempotency-Key` may be answered again to the same key, in ms:
 * long enough for a relying party's retry after a lost reply, short enough that a code's result
 * is not replayable for long.
 */
export const RESOLVE_REPLAY_WINDOW_MS = 60_000;

/**
 * The `Idempotency-Key` request header of a resolve: 16–255 printable ASCII characters, as
 * idempotency keys are usually generated (UUIDs, random strings). A shorter key (a counter, "1")
 * could be guessed by whoever learned the code, and the replay window would then answer them.
 * The resolve operation checks it with this schema and the OpenAPI document declares it from it.
 */
export const idempotencyKeySchema = v.pipe(
  v.string(),
  v.minLength(16),
  v.maxLength(255),
  v.regex(/^[\x21-\x7e]+$/),
  v.description(
    'A random key (such as a UUID) of 16 to 255 printable ASCII characters (0x21–0x7E). A retry with the same key within 60 s after a lost reply is answered the same result again; an invalid key is refused with 400 request.invalid_idempotency_key.',
  ),
);
export const isIdempotencyKey = (value: string): boolean => v.is(idempotencyKeySchema, value);

/**
 * What the record stores of the caller's key: a hash scoped by the code's store key, so neither
 * the key nor anything replayable without the code is kept.
 */
export const idempotencyKeyHash = (codeKey: string, idempotencyKey: string): string => sha256Base64url(`${codeKey}\u0000${idempotencyKey}`);

/** Where a keyed resolve leaves a pointer to its authorization, for a retry that finds the code gone. */
export const receiptKey = (codeKey: string): string => `${codeKey}:resolved`;

/** True when `record` was resolved by the caller holding this key hash, within the replay window. */
export function resolvedByKey(record: AuthorizationRecord, keyHash: string | undefined, now: number): boolean {
  const mark = record.responseCodeResolved;
  return keyHash !== undefined && mark?.keyHash === keyHash && !mark.void && now < mark.at + RESOLVE_REPLAY_WINDOW_MS;
}
