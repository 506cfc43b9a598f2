import type { Instrumentation, TelemetryAttributes } from '../events/instrumentation.js';
import type { PolicyResult } from '../model/policy-result.js';
import type { ClientOutcome } from './call-client.js';

/** `vp.policy.outcome` of a step: passed, failed (a result with an error), or error (the call itself failed). */
export function resultsOutcome(results: PolicyResult[]): TelemetryAttributes {
  const failed = results.find((r) => r.error)?.error;
  return failed ? { 'vp.policy.outcome': 'failed', 'vp.policy.code': failed.code ?? failed.type } : { 'vp.policy.outcome': 'passed' };
}

function clientOutcome(outcome: ClientOutcome): TelemetryAttributes {
  if (outcome.ok) return resultsOutcome(outcome.results);
  return {
    'vp.policy.outcome': 'error',
    'vp.policy.code': outcome.failure.code ?? outcome.failure.type,
    ...(outcome.failure.reason ? { 'vp.policy.reason': outcome.failure.reason } : {}),
  };
}

/** A validator or verifier call as a step of its own (the call as is without instrumentation). */
export function tracedClientCall(instrumentation: Instrumentation | undefined, step: 'validate' | 'verify', call: () => Promise<ClientOutcome>): Promise<ClientOutcome> {
  if (!instrumentation) return call();
  return instrumentation.step(step, {}, async (span) => {
    const outcome = await call();
    span.setAttributes(clientOutcome(outcome));
    return outcome;
  });
}
