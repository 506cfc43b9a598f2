import type { ValidatorClient } from '../model/validator-client.js';
import { resolveHttpServiceOptions, type HttpServiceClientOptions } from './http-service-options.js';
import { invalidOutcomeResults } from './invalid-outcome-results.js';
import { postToService } from './post-to-service.js';

/**
 * ValidatorClient for a remote validator service: POST `${url}/validate` with the ValidateInput as
 * JSON (docs/service-wire-format.md). 200 → its results; 422 → its results plus a
 * `validate.failed` error (→ `rejected`); anything else → ServiceCallError (→ `error`).
 */
export function httpValidatorClient(options: HttpServiceClientOptions): ValidatorClient {
  const resolved = resolveHttpServiceOptions(options, 'httpValidatorClient');
  return {
    async validate(input, { signal }) {
      const outcome = await postToService(resolved, '/validate', input, 'validator', signal);
      return outcome.kind === 'ok' ? outcome.results : invalidOutcomeResults(outcome, 'validator');
    },
  };
}
