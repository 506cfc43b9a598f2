import type { PolicyResult } from '../clients/policy-result.js';

/** Stable codes of the format policy. They appear as `error.code` and in `error.type`. */
export const FORMAT_ERROR_TITLES = {
  'format.vp_token_invalid': 'The vp_token is missing or not shaped as the query requires.',
  'format.unknown_query_id': 'The vp_token has a key that is not a credential query id of this request.',
  'format.query_not_covered': 'The vp_token does not contain the credentials the query requires.',
  'format.cardinality': 'A credential query received the wrong number of presentations.',
  'format.unsupported_format': 'The credential format is not supported.',
  'format.sd_jwt_malformed': 'An SD-JWT presentation could not be decoded.',
  'format.mdoc_malformed': 'An mdoc DeviceResponse could not be decoded.',
  'format.cbor_budget_exceeded': 'The CBOR in the response needs more decoding work than allowed.',
  'format.jwt_malformed': 'A JWT presentation or credential could not be decoded.',
  'format.ldp_malformed': 'A Data Integrity (ldp) presentation is not a JSON object.',
  'format.submission_invalid': 'The presentation_submission is missing, unexpected or does not match the presentation definition.',
  'format.id_token_missing': 'The response type requires an id_token and none was sent.',
  'format.id_token_malformed': 'The id_token is not a decodable JWT.',
  'format.haip_violation': 'The presentation does not meet the HAIP profile.',
} as const;

export type FormatErrorCode = keyof typeof FORMAT_ERROR_TITLES;

export const FORMAT_ERROR_TYPE_BASE = 'https://vp-authorizer.dev/errors/';

/**
 * Thrown inside the format policy only and turned into a PolicyResult by runFormatPolicy.
 * `detail` describes the problem without quoting wallet input.
 */
export class FormatFailure extends Error {
  override readonly name = 'FormatFailure';
  constructor(
    readonly code: FormatErrorCode,
    readonly detail: string,
    readonly path: (string | number)[] = [],
  ) {
    super(detail);
  }
}

export function formatErrorResult(code: FormatErrorCode, detail: string, path: (string | number)[]): PolicyResult {
  return {
    path,
    policy: 'format',
    service: 'authorizer',
    error: { type: `${FORMAT_ERROR_TYPE_BASE}${code}`, title: FORMAT_ERROR_TITLES[code], detail, code },
  };
}
