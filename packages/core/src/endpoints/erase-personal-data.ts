import { erasePersonalData } from '../authorization/data-retention.js';
import { loadForInstance } from '../authorization/transitions.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { isTerminalStatus } from '../model/authorization-record.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { emptyResponse } from '../wire/responses.js';
import { defineEndpoint } from './endpoint.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

/**
 * Erase what the wallet disclosed for one finished authorization, now (its claims, credentials,
 * policy-result data, problem details and wallet metadata); the outcome, status and timings stay
 * until the record's end, so a repeated call answers the same. Before the outcome nothing
 * disclosed is stored, and erasing then would race the outcome's write: 409, retry once terminal.
 */
export async function erasePersonalDataNow(ctx: AuthorizerContext, instanceId: string, id: string): Promise<void> {
  // Loading expires an overdue record first: one past its expiry is then erasable at once.
  const record = await loadForInstance(ctx, instanceId, id);
  if (!isTerminalStatus(record.status)) throw new AuthorizerError('authorization.not_finished');
  // Null: the record left the store meanwhile (its TTL), with everything it held.
  await erasePersonalData(ctx, record, 'request');
}

export const erasePersonalDataEndpoint = defineEndpoint({
  operationId: 'erasePersonalData',
  name: 'authorizations.erase_personal_data',
  method: 'DELETE',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/personal-data',
  audience: 'rp',
  summary: 'Erase the data a wallet disclosed for a finished authorization, now',
  description:
    'Removes the claims, credentials, policy-result data, problem details and wallet metadata; the status, outcome and timings remain readable until the record leaves the store. Idempotent: a repeated call answers 204 too. Afterwards `credentials` and `policy-response` answer 410 `authorization.data_erased`.',
  pathParams: AUTHORIZATION_ID,
  responses: { 204: { description: 'The disclosed data is erased (or already was).' } },
  errors: [404, 409, 503],
  errorDescriptions: { 409: 'authorization.not_finished: the authorization has no outcome yet (nothing disclosed is stored before it); retry once its status is terminal.' },
  run: ({ ctx, params, instance }) => erasePersonalDataNow(ctx, instance.id, params[0]!).then(() => emptyResponse(204)),
});
