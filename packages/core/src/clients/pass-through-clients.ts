import type { PolicyResult } from '../model/policy-result.js';
import type { ValidatorClient } from '../model/validator-client.js';
import type { VerifierClient } from '../model/verifier-client.js';

/**
 * TEST DOUBLE: accepts every presentation without looking at it. For demos and tests of the
 * HTTP flow only — it provides no security. Use @vp-authorizer/local or a remote service.
 */
export function passThroughValidator(): ValidatorClient {
  return {
    async validate(input) {
      return input.presentations.map((p): PolicyResult => ({ path: p.path, policy: 'credentialQuery', service: 'validator', data: { passThrough: true } }));
    },
  };
}

/** TEST DOUBLE: reports every presentation as verified. Never use it in production. */
export function passThroughVerifier(): VerifierClient {
  return {
    async verify(input) {
      return input.presentations.map((p): PolicyResult => ({ path: p.path, policy: 'proof', service: 'verifier', data: { passThrough: true } }));
    },
    async verifyIdToken(input) {
      return [{ path: input.idToken.path, policy: 'proof', service: 'verifier', data: { passThrough: true } }];
    },
  };
}
