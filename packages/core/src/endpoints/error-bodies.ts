import * as v from 'valibot';
import type { ResponseSpec } from './endpoint.js';

/** A field problem, located by a JSON pointer into the request body. */
export const fieldErrorSchema = v.looseObject({
  pointer: v.string(),
  detail: v.string(),
  code: v.optional(v.string()),
});

/**
 * The body of every RP (and public) error: `type` is a stable code from the error table,
 * `message` the hosted API's required member. Loose: members may be added, never removed.
 */
export const rpErrorSchema = v.pipe(
  v.looseObject({
    type: v.string(),
    message: v.string(),
    action: v.optional(v.string()),
    status: v.pipe(v.number(), v.integer()),
    errors: v.optional(v.array(fieldErrorSchema)),
  }),
  v.title('Error'),
  v.description('Error of an RP or public endpoint: type is a stable code (docs/errors.md).'),
);

/** OAuth-style error of a wallet endpoint (RFC 6749 section 5.2 names). */
export const walletErrorSchema = v.pipe(
  v.looseObject({
    error: v.string(),
    error_description: v.optional(v.string()),
  }),
  v.title('WalletError'),
  v.description('Error of a wallet-facing endpoint, OAuth style.'),
);

export type RpErrorBody = v.InferOutput<typeof rpErrorSchema>;
export type WalletErrorBody = v.InferOutput<typeof walletErrorSchema>;

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid (errors[] locates field problems).',
  401: 'A valid API key is required (Authorization: Bearer <key>).',
  404: 'Not found (or belongs to another instance).',
  413: 'The request body is larger than the configured limit.',
  415: 'The content type is not supported by this endpoint.',
  500: 'An internal error occurred.',
  503: 'The state store is unavailable; retry after Retry-After seconds.',
};

const errorResponses = (schema: typeof rpErrorSchema | typeof walletErrorSchema, statuses: number[]): Record<number, ResponseSpec> =>
  Object.fromEntries(statuses.map((status) => [status, { description: DESCRIPTIONS[status] ?? 'Error.', contentType: 'application/json', schema }]));

/** RP-format error answers for the given statuses. */
export const rpErrors = (...statuses: number[]) => errorResponses(rpErrorSchema, statuses);
/** Wallet-format (OAuth) error answers for the given statuses. */
export const walletErrors = (...statuses: number[]) => errorResponses(walletErrorSchema, statuses);
