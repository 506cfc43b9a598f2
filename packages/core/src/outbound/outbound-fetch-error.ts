import type { ErrorClassCode } from '../errors/error-codes.js';

/** Why an outbound request failed (a wallet-triggered fetch, a webhook delivery). Callers turn it into a result error or a retry, never into a throw to their own caller. */
export type OutboundFetchFailure =
  /** The URL or a resolved address is outside the outbound fetch policy (nothing was sent). */
  | 'destination'
  | 'timeout'
  | 'too_large'
  | 'redirect'
  | 'http_status'
  | 'network';

const MESSAGES: Record<OutboundFetchFailure, string> = {
  destination: 'the destination is not a public https host',
  timeout: 'no complete response within the time limit',
  too_large: 'the response is larger than the size limit',
  redirect: 'the server answered with a redirect, which is never followed',
  http_status: 'the server answered with an error status',
  network: 'the request failed',
};

const CODE_OF = {
  destination: 'outbound.destination_refused',
  timeout: 'outbound.timeout',
  too_large: 'outbound.too_large',
  redirect: 'outbound.redirect',
  http_status: 'outbound.http_status',
  network: 'outbound.network',
} as const satisfies Record<OutboundFetchFailure, Extract<ErrorClassCode, `outbound.${string}`>>;

/**
 * Messages are fixed per reason: nothing the remote host sent (status, body, headers) and no
 * resolved address is echoed, so a wallet cannot use the verifier as a probe of other hosts.
 */
export class OutboundFetchError extends Error {
  override readonly name = 'OutboundFetchError';
  /** The stable code of `reason` in core's CODES table. */
  readonly code: (typeof CODE_OF)[OutboundFetchFailure];
  constructor(
    readonly reason: OutboundFetchFailure,
    /** The HTTP status of an `http_status` failure, for callers that branch on it (a resolver's 404); never in the message. */
    readonly status?: number,
  ) {
    super(MESSAGES[reason]);
    this.code = CODE_OF[reason];
  }
}
