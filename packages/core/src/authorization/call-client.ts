import type { PolicyError, PolicyResult } from '../clients/policy-result.js';

export type ClientOutcome = { ok: true; results: PolicyResult[] } | { ok: false; failure: PolicyError };

class ClientTimeoutError extends Error {
  override readonly name = 'ClientTimeoutError';
}

/**
 * Call a validator/verifier with a deadline. The signal is aborted at the deadline, and the call
 * is abandoned even if the client ignores the signal, so an authorization never stays pending
 * because of a hung client. Whatever the client throws or returns that is not a list of results
 * becomes a failure (→ status `error`), never an exception.
 */
export async function callClient(
  label: 'validate' | 'verify',
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<unknown>,
  /** Paths the results must cover (each needs a result at or below it); fail closed otherwise. */
  mustCover: (string | number)[][] = [],
): Promise<ClientOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ClientTimeoutError(`The ${label} call did not finish within ${timeoutMs} ms.`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const value = await Promise.race([Promise.resolve().then(() => call(controller.signal)), deadline]);
    const results = asPolicyResults(value);
    if (!results) return { ok: false, failure: failure(label, 'The service answered with malformed results.') };
    // An empty answer, or one that skips a presentation, must not read as "nothing failed".
    if (results.length === 0) return { ok: false, failure: failure(label, 'The service answered with no results.') };
    const uncovered = mustCover.find((path) => !results.some((r) => path.every((segment, i) => r.path[i] === segment)));
    if (uncovered) return { ok: false, failure: failure(label, `The service answered with no result for the presentation at [${uncovered.map((s) => JSON.stringify(s)).join(', ')}].`) };
    return { ok: true, results };
  } catch (error) {
    const external = (error as { external?: PolicyError['external'] } | null)?.external;
    const detail = error instanceof ClientTimeoutError ? error.message : `The ${label} call failed${error instanceof Error && error.name !== 'Error' ? ` (${error.name})` : ''}.`;
    return { ok: false, failure: { ...failure(label, detail), ...(external ? { external } : {}) } };
  } finally {
    clearTimeout(timer);
  }
}

function failure(label: 'validate' | 'verify', detail: string): PolicyError {
  const code = label === 'validate' ? 'unexpected-validate-error' : 'unexpected-verify-error';
  return { type: `https://vp-authorizer.dev/errors/${code}`, title: `The ${label} policy could not be carried out`, detail, code };
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
