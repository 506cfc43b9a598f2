import type { PolicyError, PolicyResult, ServiceFailureReason } from '../model/policy-result.js';
import { policyProblem } from '../errors/error-codes.js';

export type ClientOutcome = { ok: true; results: PolicyResult[] } | { ok: false; failure: PolicyError };

class ClientTimeoutError extends Error {
  override readonly name = 'ClientTimeoutError';
}

/**
 * One deadline shared by the client calls of one evaluation that have the same time limit (they
 * start together, so they would expire together): one timer and one AbortController for them,
 * where each call used to make its own. `clear()` when every call that uses it has settled.
 */
export class ClientDeadlines {
  readonly #byTimeout = new Map<number, { controller: AbortController; expired: Promise<never>; timer: ReturnType<typeof setTimeout> }>();

  /** The signal and the expiry of `timeoutMs` from now (the first call with that limit starts it). */
  for(timeoutMs: number): { signal: AbortSignal; expired: Promise<never> } {
    let deadline = this.#byTimeout.get(timeoutMs);
    if (deadline === undefined) {
      const controller = new AbortController();
      let expire!: (error: ClientTimeoutError) => void;
      const expired = new Promise<never>((_, reject) => (expire = reject));
      // Observed here as well: a deadline whose calls all settled first must not surface as unhandled.
      expired.catch(() => {});
      const timer = setTimeout(() => {
        const error = new ClientTimeoutError(`The call did not finish within ${timeoutMs} ms.`);
        controller.abort(error);
        expire(error);
      }, timeoutMs);
      this.#byTimeout.set(timeoutMs, (deadline = { controller, expired, timer }));
    }
    return { signal: deadline.controller.signal, expired: deadline.expired };
  }

  clear(): void {
    for (const { timer } of this.#byTimeout.values()) clearTimeout(timer);
    this.#byTimeout.clear();
  }
}

/**
 * Call a validator/verifier with a deadline. The signal is aborted at the deadline, and the call
 * is abandoned even if the client ignores the signal, so an authorization never stays pending
 * because of a hung client. Whatever the client throws or returns that is not a list of results
 * becomes a failure (→ status `error`), never an exception. The failure keeps why (`reason`,
 * plus `status` and `attempts` from a remote service) but never an arbitrary exception message:
 * in-process clients may put secrets there. `deadlines` shares the deadline with the other calls
 * of the same evaluation (see ClientDeadlines); without it the call has a deadline of its own.
 */
export async function callClient(
  label: 'validate' | 'verify',
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<unknown>,
  /** Paths the results must cover (each needs a result at or below it); fail closed otherwise. */
  mustCover: (string | number)[][] = [],
  deadlines?: ClientDeadlines,
): Promise<ClientOutcome> {
  const own = deadlines ? undefined : new ClientDeadlines();
  const { signal, expired } = (deadlines ?? own!).for(timeoutMs);
  try {
    // Started one tick later, so that a client which settles from its own abort listener (with
    // its own error or even with results) still loses to the deadline, and a synchronous throw
    // is a rejection like any other.
    const answer = Promise.resolve().then(() => call(signal));
    const value = await Promise.race([answer, expired]);
    const results = asPolicyResults(value);
    if (!results) return { ok: false, failure: failure(label, 'service.bad_response', 'The service answered with malformed results.') };
    // An empty answer, or one that skips a presentation, must not read as "nothing failed".
    if (results.length === 0) return { ok: false, failure: failure(label, 'service.bad_response', 'The service answered with no results.') };
    const uncovered = rejectsWholeResponse(results) ? undefined : mustCover.find((path) => !results.some((r) => path.every((segment, i) => r.path[i] === segment)));
    if (uncovered) return { ok: false, failure: failure(label, 'service.bad_response', `The service answered with no result for the presentation at [${uncovered.map((s) => JSON.stringify(s)).join(', ')}].`) };
    return { ok: true, results };
  } catch (error) {
    try {
      // Once the deadline has passed, whatever the client ended with is a timeout.
      if ((signal.aborted && signal.reason instanceof ClientTimeoutError) || error instanceof ClientTimeoutError) {
        return { ok: false, failure: failure(label, 'service.timeout', `The ${label} call did not finish within ${timeoutMs} ms.`) };
      }
      return { ok: false, failure: failureOf(label, error) };
    } catch {
      // A thrown value that throws when looked at (a revoked proxy, a throwing `name` getter).
      return { ok: false, failure: failure(label, 'service.client_failed', `The ${label} call failed.`) };
    }
  } finally {
    own?.clear();
  }
}

/**
 * A failing result at `[]` is a decision about the whole response, hence about every presentation
 * in it (a remote service's 422 without per-presentation results): the outcome is `rejected`
 * whatever else is missing, so the completeness check has nothing left to protect.
 */
const rejectsWholeResponse = (results: PolicyResult[]): boolean => results.some((r) => r.path.length === 0 && r.error !== undefined);

const SERVICE_CALL_CODES: ReadonlySet<unknown> = new Set(['service.timeout', 'service.unavailable', 'service.bad_response']);

interface ServiceCallFailure {
  name: 'ServiceCallError';
  code: ServiceFailureReason;
  message: string;
  status?: number;
  attempts?: number;
  external?: PolicyError['external'];
}

/** Structural, not instanceof: a second copy of the core (dual package) throws its own class. */
function isServiceCallFailure(error: unknown): error is ServiceCallFailure {
  return error instanceof Error && error.name === 'ServiceCallError' && SERVICE_CALL_CODES.has((error as { code?: unknown }).code);
}

function failureOf(label: 'validate' | 'verify', error: unknown): PolicyError {
  if (isServiceCallFailure(error)) {
    // Its message is built to name only the service, endpoint path and HTTP status (post-to-service.ts).
    return {
      ...failure(label, error.code, `The ${label} call failed: ${error.message}.`),
      ...(typeof error.status === 'number' ? { status: error.status } : {}),
      ...(typeof error.attempts === 'number' ? { attempts: error.attempts } : {}),
      ...(error.external ? { external: error.external } : {}),
    };
  }
  // Anything else came from an in-process client: its class name is safe, its message may not be.
  const name = error instanceof Error && error.name !== 'Error' && /^[A-Za-z0-9_$]{1,64}$/.test(error.name) ? ` (${error.name})` : '';
  return failure(label, 'service.client_failed', `The ${label} call failed${name}.`);
}

function failure(label: 'validate' | 'verify', reason: ServiceFailureReason, detail: string): PolicyError {
  return { ...policyProblem(label === 'validate' ? 'validate.unexpected_error' : 'verify.unexpected_error', detail), reason };
}

const isPath = (p: unknown): p is (string | number)[] => Array.isArray(p) && p.every((s) => typeof s === 'string' || typeof s === 'number');

/** Accept only well-formed results: exactly one of data/error, error with a string type. */
function asPolicyResults(value: unknown): PolicyResult[] | null {
  if (!Array.isArray(value)) return null;
  for (const r of value) {
    if (r === null || typeof r !== 'object') return null;
    const { path, policy, service, data, error } = r as Record<string, unknown>;
    if (!isPath(path) || typeof policy !== 'string' || typeof service !== 'string') return null;
    if ((data === undefined) === (error === undefined)) return null;
    if (error !== undefined && (error === null || typeof error !== 'object' || typeof (error as { type?: unknown }).type !== 'string')) return null;
    if (data !== undefined && (data === null || typeof data !== 'object')) return null;
  }
  return value as PolicyResult[];
}
