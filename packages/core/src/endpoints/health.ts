import { emptyResponse } from '../wire/responses.js';
import { defineEndpoint } from './endpoint.js';

export const healthEndpoint = defineEndpoint({
  operationId: 'getHealth',
  name: 'health',
  method: 'GET',
  path: '/health',
  audience: 'public',
  summary: 'Liveness check',
  description: 'Answers 204 while the process serves requests; touches nothing else (for a liveness probe). `GET /health/ready` also checks the store.',
  responses: { 204: { description: 'The authorizer is serving requests.' } },
  run: async () => emptyResponse(204),
});
