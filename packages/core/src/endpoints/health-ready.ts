import { emptyResponse } from '../wire/responses.js';
import { defineEndpoint } from './endpoint.js';

export const healthReadyEndpoint = defineEndpoint({
  operationId: 'getReadiness',
  name: 'health.ready',
  method: 'GET',
  path: '/health/ready',
  audience: 'public',
  summary: 'Readiness check',
  description:
    'Touches the store (its `ping()`, or a read) and answers 204 when it answered within 2 s. Probes arriving together share one ' +
    'store round trip, and its answer is reused for 1 s, so probes cannot multiply the load on the store. Unlike `GET /health` (liveness), ' +
    'this fails while the store is unreachable: route traffic away, do not restart. It also asks the `readiness` checks the authorizer is ' +
    'configured with (for example trusted lists, not ready while one is past its NextUpdate plus grace or never loaded), in the same shared, cached probe.',
  responses: { 204: { description: 'The authorizer can serve requests: the store answered and every readiness check is ready.' } },
  errors: [503],
  errorDescriptions: {
    503: 'The store is unreachable (`store.unavailable`), or a readiness check is not (`readiness.not_ready`, its message naming the check and why); `Retry-After` says when to ask again.',
  },
  run: async ({ ctx }) => {
    await ctx.readiness.check();
    return emptyResponse(204);
  },
});
