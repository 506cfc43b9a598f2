import type { FieldError } from '../errors/authorizer-error.js';
import { jsonSize } from '../store/json-size.js';
import { jsonPointer } from './json-pointer.js';
import type { CreateAuthorizationBody } from './create-authorization-body.js';

const KiB = 1024;

/**
 * Caps, in characters of JSON text (`jsonSize`: bytes, for ASCII), on what a create body may store. The
 * authorizer keeps these members for the authorization's whole retention without interpreting
 * them (or only a few of their members), so without a cap of their own one create could park the
 * whole body limit in the store. Real requests use a small fraction of each.
 */
export const CREATE_BODY_SIZE_LIMITS = {
  /** The whole create body. */
  body: 256 * KiB,
  /** `query`: the DCQL query or the presentation definition, unknown members included. */
  query: 64 * KiB,
  /** Each DCQL credential query's `meta`. */
  meta: 16 * KiB,
  /** `walletMetadata`. */
  walletMetadata: 16 * KiB,
  /** `responseTypeParameters.verifier_info`, all entries together. */
  verifierInfo: 64 * KiB,
  /** `transaction_data` (top level or in `responseTypeParameters`), all entries together, as sent (base64url). */
  transactionData: 64 * KiB,
} as const;

type Limit = keyof typeof CREATE_BODY_SIZE_LIMITS;

/**
 * Every member of a structurally valid create body over its cap, each with its pointer; the body's
 * own cap is checked first and alone (past it, the members are not measured). Each measure stops
 * at its cap, so this costs at most about the caps' sum in work.
 */
export function createBodySizeIssues(body: CreateAuthorizationBody): FieldError[] {
  const over = tooLarge(body, 'body', []);
  if (over) return [over];
  const issues: FieldError[] = [];
  const add = (issue: FieldError | undefined) => {
    if (issue) issues.push(issue);
  };
  add(tooLarge(body.query, 'query', ['query']));
  if (body.query.type === 'DCQL') body.query.dcql.credentials.forEach((credential, i) => add(tooLarge(credential.meta, 'meta', ['query', 'dcql', 'credentials', i, 'meta'])));
  add(tooLarge(body.walletMetadata, 'walletMetadata', ['walletMetadata']));
  add(tooLarge(body.responseTypeParameters?.verifier_info, 'verifierInfo', ['responseTypeParameters', 'verifier_info']));
  add(tooLarge(body.transaction_data, 'transactionData', ['transaction_data']));
  add(tooLarge(body.responseTypeParameters?.transaction_data, 'transactionData', ['responseTypeParameters', 'transaction_data']));
  return issues;
}

function tooLarge(value: unknown, limit: Limit, at: (string | number)[]): FieldError | undefined {
  if (value === undefined) return undefined;
  const cap = CREATE_BODY_SIZE_LIMITS[limit];
  if (jsonSize(value, cap) <= cap) return undefined;
  const what = at.length === 0 ? 'the create body' : String(at[at.length - 1]);
  return { pointer: jsonPointer(at), detail: `${what} is too large: at most ${cap} bytes of JSON are accepted`, code: 'request.member_too_large' };
}
