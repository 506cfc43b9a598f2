import * as v from 'valibot';
import type { Audience, Endpoint, ResponseSpec } from './endpoint.js';

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

/** The error body an endpoint of this audience answers with: OAuth style for wallets, else the RP format. */
export const errorSchemaFor = (audience: Audience) => (audience === 'wallet' ? walletErrorSchema : rpErrorSchema);

/**
 * Every status an endpoint can answer: its success answers, its own error statuses, and those the
 * serving path adds for every endpoint of its kind (authentication, body parsing, internal).
 */
export function responsesOf(endpoint: Endpoint): Record<number, ResponseSpec> {
  const statuses = new Set([...(endpoint.errors ?? []), 500]);
  if (endpoint.audience === 'rp') statuses.add(401);
  if (endpoint.body) for (const status of [400, 413, 415]) statuses.add(status);
  const errors = [...statuses].map((status): [number, ResponseSpec] => [
    status,
    { description: endpoint.errorDescriptions?.[status] ?? DESCRIPTIONS[status] ?? 'Error.', contentType: 'application/json', schema: errorSchemaFor(endpoint.audience) },
  ]);
  return Object.fromEntries([...Object.entries(endpoint.responses), ...errors].sort(([a], [b]) => Number(a) - Number(b)));
}
