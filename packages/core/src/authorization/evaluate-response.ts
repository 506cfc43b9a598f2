import type { PolicyError, PolicyResult } from '../model/policy-result.js';
import { CODES, errorTypeUrl, isCode, policyProblem, type PolicyCode, type PolicyCodeEntry } from '../errors/error-codes.js';
import { sessionTranscriptInput, type AnnexCTranscriptInput } from './session-transcript-input.js';
import type { ExtractedCredential } from '../model/extracted-credential.js';
import { runFormatPolicy, type FormatInput } from '../formats/policy/run-format-policy.js';
import type { Instrumentation } from '../events/instrumentation.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import type { AuthorizationRecord, AuthorizationStatus } from '../model/authorization-record.js';
import { callClient, ClientDeadlines, type ClientOutcome } from './call-client.js';
import { resultsOutcome, tracedClientCall } from './policy-telemetry.js';

/** The response parameters, wherever they came from (form, decrypted JWE, DC API data). */
export interface WalletPayload {
  vpToken?: unknown;
  presentationSubmission?: unknown;
  idToken?: unknown;
  error?: unknown;
  errorDescription?: unknown;
}

export interface ResponseChannel {
  /** DC API origin; absent for redirect flows. */
  origin?: string;
  /** Our public key when the response was encrypted to it (mdoc SessionTranscript), else null. */
  encryptionJwk: JsonWebKey | null;
  /** An org-iso-mdoc (Annex C) response: the transcript its HPKE envelope was opened with. */
  sessionTranscript?: AnnexCTranscriptInput;
}

export interface Evaluation {
  status: Extract<AuthorizationStatus, 'authorized' | 'rejected' | 'error'>;
  policyResults: PolicyResult[];
  credentials: ExtractedCredential[];
  error?: PolicyError;
}

/**
 * Format, then validate ∥ verify, then decide:
 * - a wallet error or any failed result → `rejected`;
 * - a client that threw, timed out or answered garbage → `error`;
 * - otherwise `authorized`.
 */
export async function evaluateResponse(
  instance: InstanceRuntime,
  record: AuthorizationRecord,
  payload: WalletPayload,
  channel: ResponseChannel,
  /** Spans for format, validate and verify (absent: the policies run bare). */
  instrumentation?: Instrumentation,
): Promise<Evaluation> {
  const request = record.request;
  if (payload.error !== undefined) return walletError(payload);

  const formatInput: FormatInput = {
    query: request.query,
    responseType: request.responseType,
    vpToken: payload.vpToken,
    presentationSubmission: payload.presentationSubmission,
    idToken: payload.idToken,
    ...(request.profile ? { profile: request.profile } : {}),
  };
  const format = instrumentation
    ? await instrumentation.step('format', {}, async (span) => {
        const outcome = runFormatPolicy(formatInput);
        span.setAttributes(resultsOutcome(outcome.results));
        return outcome;
      })
    : runFormatPolicy(formatInput);
  if (!format.ok) return { status: 'rejected', policyResults: format.results, credentials: [], ...firstError(format.results) };

  const audience = channel.origin !== undefined ? `origin:${channel.origin}` : (request.clientId ?? '');
  const sessionTranscript = channel.sessionTranscript ?? sessionTranscriptInput(request, channel);
  const { validate, verify } = instance.config.policies;
  const common = { authorizationId: record.id, ...(request.profile ? { profile: request.profile } : {}), ...(request.transactionData ? { transactionData: request.transactionData } : {}) };

  const calls: Promise<ClientOutcome>[] = [];
  const deadlines = new ClientDeadlines();
  const validator = instance.validator;
  if (validator) {
    calls.push(
      tracedClientCall(instrumentation, 'validate', () =>
        callClient('validate', validate.timeoutMs, (signal) => validator.validate({ ...common, query: request.query, presentations: format.presentations }, { signal }), [], deadlines),
      ),
    );
  }
  const verifier = instance.verifier;
  if (verifier) {
    calls.push(tracedClientCall(instrumentation, 'verify', () =>
      callClient('verify', verify.timeoutMs, (signal) =>
        verifier.verify(
          {
            ...common,
            query: request.query,
            presentations: format.presentations,
            nonce: request.nonce,
            audience,
            sessionTranscript,
            holderBindingRequired: holderBindingRequired(record),
            didMethods: instance.config.didMethods,
          },
          { signal },
        ),
        // Cryptographic verification must speak to every presentation.
        format.presentations.map((p) => p.path),
        deadlines,
      ),
    ));
    const idToken = format.idToken;
    if (idToken) {
      // ID-token flows run format + verify only: no validator call for the ID token.
      calls.push(
        tracedClientCall(instrumentation, 'verify', () =>
          callClient('verify', verify.timeoutMs, (signal) =>
            verifier.verifyIdToken({ authorizationId: record.id, idToken, nonce: request.nonce, audience, didMethods: instance.config.didMethods }, { signal }),
            [idToken.path],
            deadlines,
          ),
        ),
      );
    }
  }
  // Every call settles before the shared deadline is cleared: a call still running must keep its
  // deadline (and be told to stop at it) even when another call failed in a way callClient did
  // not catch (instrumentation throwing).
  const settled = await Promise.allSettled(calls);
  deadlines.clear();
  const outcomes: ClientOutcome[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'rejected') throw outcome.reason;
    outcomes.push(outcome.value);
  }

  const policyResults = [...format.results];
  let failed = false;
  for (const outcome of outcomes) {
    if (outcome.ok) policyResults.push(...outcome.results);
    else {
      failed = true;
      policyResults.push({ path: [], policy: outcome.failure.code === 'validate.unexpected_error' ? 'validate' : 'verify', service: 'authorizer', error: outcome.failure });
    }
  }
  const ordered = rootCausesFirst(policyResults);
  const firstFailure = firstError(ordered);
  if (failed) return { status: 'error', policyResults: ordered, credentials: [], ...firstFailure };
  if (firstFailure.error) return { status: 'rejected', policyResults: ordered, credentials: [], ...firstFailure };
  return { status: 'authorized', policyResults: ordered, credentials: format.credentials };
}

const isDerived = (code: string | undefined): boolean => isCode(code) && (CODES[code] as Partial<PolicyCodeEntry>).derived === true;

/**
 * Failures before passes, and root causes before the failures they cause (codes marked `derived`
 * in the table, such as `credential_query.unsatisfied` after an untrusted issuer), so that a
 * person reading `policy-response` from the top, or the summary error, sees why first. The order
 * within each group is kept (Array.prototype.sort is stable).
 */
function rootCausesFirst(results: PolicyResult[]): PolicyResult[] {
  const rank = (r: PolicyResult) => (r.error === undefined ? 2 : isDerived(r.error.code) ? 1 : 0);
  return [...results].sort((a, b) => rank(a) - rank(b));
}

function firstError(results: PolicyResult[]): { error?: PolicyError } {
  const found = results.find((r) => r.error)?.error;
  return found ? { error: found } : {};
}

function holderBindingRequired(record: AuthorizationRecord): Record<string, boolean> {
  const { query, profile } = record.request;
  if (query.type !== 'DCQL') {
    return Object.fromEntries(query.presentationDefinition.input_descriptors.map((d) => [d.id, true]));
  }
  return Object.fromEntries(query.dcql.credentials.map((c) => [c.id, profile === 'haip' || c.require_cryptographic_holder_binding !== false]));
}

const WALLET_ERROR = /^[a-z0-9_]{1,64}$/;

function walletError(payload: WalletPayload): Evaluation {
  const code = `wallet.${typeof payload.error === 'string' && WALLET_ERROR.test(payload.error) ? payload.error : 'unknown'}`;
  const description = typeof payload.errorDescription === 'string' ? payload.errorDescription.slice(0, 500) || undefined : undefined;
  // Values outside OpenID4VP and OAuth are kept (a wallet's own extension is still worth showing the RP).
  const error: PolicyError = isCode(code)
    ? policyProblem(code as PolicyCode & `wallet.${string}`, description)
    : { type: errorTypeUrl(code), title: 'The wallet returned an error', code, ...(description ? { detail: description } : {}) };
  return { status: 'rejected', policyResults: [{ path: [], policy: 'format', service: 'authorizer', error }], credentials: [], error };
}
