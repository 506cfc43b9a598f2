import type { PolicyResult } from '../../model/policy-result.js';
import { decodeCompactJwt, isDecodeError } from '../shared/decode-jwt.js';
import { extractCredentials } from '../registry.js';
import type { ExtractedCredential } from '../../model/extracted-credential.js';
import { FormatFailure, formatErrorResult } from '../format-error.js';
import { CborBudget } from '../shared/cbor-budget.js';
import { checkDcqlCoverage } from './check-dcql-coverage.js';
import { checkPeCoverage } from './check-pe-coverage.js';
import { parseDcqlVpToken } from './parse-dcql-vp-token.js';
import { parsePeVpToken } from './parse-pe-vp-token.js';
import type { ParsedIdToken, ParsedPresentation } from '../../model/parsed-presentation.js';
import type { AuthorizationQuery } from '../../model/authorization-query.js';

export interface FormatInput {
  query: AuthorizationQuery;
  /** `vp_token` or `vp_token id_token` (the record's response type). */
  responseType: string;
  /** As received: a JSON string (form posts) or a value (JWE payload, DC API `data`). */
  vpToken: unknown;
  /** Presentation Exchange only; a JSON string or an object. */
  presentationSubmission?: unknown;
  idToken?: unknown;
  profile?: 'haip';
}

export type FormatOutcome =
  | { ok: true; presentations: ParsedPresentation[]; idToken?: ParsedIdToken; credentials: ExtractedCredential[]; results: PolicyResult[] }
  | { ok: false; results: PolicyResult[] };

const toResult = (failure: FormatFailure): PolicyResult => formatErrorResult(failure.code, failure.detail, failure.path);

function parseIdToken(input: FormatInput): ParsedIdToken | undefined {
  // With response type `vp_token` an id_token is not ours to interpret: ignored.
  if (input.responseType !== 'vp_token id_token') return undefined;
  if (input.idToken === undefined || input.idToken === null || input.idToken === '') {
    throw new FormatFailure('format.id_token_missing', 'the response type "vp_token id_token" requires an id_token', ['id_token']);
  }
  const jwt = decodeCompactJwt(input.idToken);
  if (isDecodeError(jwt)) throw new FormatFailure('format.id_token_malformed', jwt.error, ['id_token']);
  return { ...jwt, path: ['id_token'] };
}

function successResult(presentation: ParsedPresentation, credentials: ExtractedCredential[]): PolicyResult {
  const types = credentials.map((c) => c.credentialType);
  const data: Record<string, unknown> = { format: presentation.format, kind: presentation.kind, credentialType: types[0] ?? '' };
  if (types.length > 1) data.credentialTypes = types;
  return { path: presentation.path, policy: 'format', service: 'authorizer', data };
}

/**
 * The format policy: decode what the wallet sent and check its shape against the query
 * (OpenID4VP 1.0 section 8.6 step 1). Pure and total: bad input of any kind yields
 * `ok: false` with at least one error result, never an exception. No signatures are
 * checked and no trust is implied; validate and verify run on the output.
 */
export function runFormatPolicy(input: FormatInput): FormatOutcome {
  const failures: FormatFailure[] = [];
  let presentations: ParsedPresentation[] = [];
  let idToken: ParsedIdToken | undefined;
  // One CBOR work budget for the whole response, however many presentations it carries.
  const options = { budget: new CborBudget(), ...(input.profile ? { profile: input.profile } : {}) };
  try {
    const query = input.query;
    if (query?.type === 'DCQL') {
      if (input.presentationSubmission !== undefined && input.presentationSubmission !== null) {
        failures.push(new FormatFailure('format.submission_invalid', 'presentation_submission is not allowed with a DCQL query', ['presentation_submission']));
      }
      const outcome = parseDcqlVpToken(input.vpToken, query.dcql, options);
      presentations = outcome.presentations;
      failures.push(...outcome.failures);
      if (outcome.failures.length === 0) {
        const coverage = checkDcqlCoverage(new Set(presentations.map((p) => p.queryId)), query.dcql);
        if (coverage) failures.push(coverage);
      }
    } else if (query?.type === 'DIF.PresentationExchange') {
      const outcome = parsePeVpToken(input.vpToken, input.presentationSubmission, query.presentationDefinition, options);
      presentations = outcome.presentations;
      failures.push(...outcome.failures);
      if (outcome.failures.length === 0) {
        const coverage = checkPeCoverage(new Set(presentations.map((p) => p.queryId)), query.presentationDefinition);
        if (coverage) failures.push(coverage);
      }
    } else {
      failures.push(new FormatFailure('format.vp_token_invalid', 'the authorization has no supported query type', []));
    }
  } catch (error) {
    failures.push(asFailure(error));
  }
  try {
    idToken = parseIdToken(input);
  } catch (error) {
    failures.push(asFailure(error));
  }

  if (failures.length > 0) return { ok: false, results: failures.map(toResult) };

  const results: PolicyResult[] = [];
  const credentials: ExtractedCredential[] = [];
  try {
    for (const presentation of presentations) {
      const extracted = extractCredentials(presentation);
      credentials.push(...extracted);
      results.push(successResult(presentation, extracted));
    }
  } catch (error) {
    return { ok: false, results: [toResult(asFailure(error))] };
  }
  if (idToken) results.push({ path: ['id_token'], policy: 'format', service: 'authorizer', data: { format: 'jwt', kind: 'id-token' } });
  return idToken ? { ok: true, presentations, idToken, credentials, results } : { ok: true, presentations, credentials, results };
}

/** Unexpected exceptions (a bug or an input we did not foresee) still end as a format error. */
function asFailure(error: unknown): FormatFailure {
  if (error instanceof FormatFailure) return error;
  return new FormatFailure('format.vp_token_invalid', 'the response could not be decoded', []);
}
