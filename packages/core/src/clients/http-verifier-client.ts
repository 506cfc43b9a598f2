import type { VerifierClient } from '../model/verifier-client.js';
import { resolveHttpServiceOptions, type HttpServiceClientOptions } from './http-service-options.js';
import { invalidOutcomeResults } from './invalid-outcome-results.js';
import { postToService } from './post-to-service.js';

/**
 * VerifierClient for a remote verifier service: POST `${url}/verify` (VerifyInput) and
 * `${url}/verify-jwt` (VerifyIdTokenInput) as JSON (docs/service-wire-format.md). 200 → its
 * results; 422 → its results plus a `verify.failed` error (→ `rejected`); anything else →
 * ServiceCallError (→ `error`).
 */
export function httpVerifierClient(options: HttpServiceClientOptions): VerifierClient {
  const resolved = resolveHttpServiceOptions(options, 'httpVerifierClient');
  return {
    async verify(input, { signal }) {
      const outcome = await postToService(resolved, '/verify', input, 'verifier', signal);
      return outcome.kind === 'ok' ? outcome.results : invalidOutcomeResults(outcome, 'verifier');
    },
    async verifyIdToken(input, { signal }) {
      const outcome = await postToService(resolved, '/verify-jwt', input, 'verifier', signal);
      return outcome.kind === 'ok' ? outcome.results : invalidOutcomeResults(outcome, 'verifier');
    },
  };
}
