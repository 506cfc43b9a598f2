import * as v from 'valibot';
import { loadForInstance } from '../authorization/transitions.js';
import { noteFirstRead, readableData } from '../authorization/data-retention.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID, extractedCredentialSchema } from './shared-schemas.js';

export const credentialsResponseSchema = v.pipe(v.object({ authorizationId: v.string(), credentials: v.array(extractedCredentialSchema) }), v.title('Credentials'));
export type CredentialsResponse = v.InferOutput<typeof credentialsResponseSchema>;

/**
 * Claims are only kept for authorized responses: unverified data is never handed out. Erased
 * claims answer 410 (never an empty list that would read as "nothing disclosed"); the first read
 * starts `dataRetention.afterRead`.
 */
export async function getCredentials(ctx: AuthorizerContext, instanceId: string, id: string): Promise<CredentialsResponse> {
  const record = readableData(await loadForInstance(ctx, instanceId, id));
  const answer = { authorizationId: record.id, credentials: record.status === 'authorized' ? record.credentials : [] };
  await noteFirstRead(ctx, record);
  return answer;
}

export const credentialsEndpoint = defineEndpoint({
  operationId: 'getCredentials',
  name: 'authorizations.credentials',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/credentials',
  audience: 'rp',
  summary: 'Read the claims of an authorized presentation',
  description: 'Empty unless the authorization is authorized; 410 once its data was erased (retention or an erase request).',
  pathParams: AUTHORIZATION_ID,
  responses: {
    200: { description: 'The disclosed claims, one entry per presentation.', contentType: 'application/json', schema: credentialsResponseSchema },
  },
  errors: [404, 410, 503],
  errorDescriptions: { 410: 'authorization.data_erased: the disclosed data was erased (its openId4vp.dataRetention window ended, or DELETE …/personal-data); the status remains readable.' },
  run: ({ ctx, params, instance }) => json(200, getCredentials(ctx, instance.id, params[0]!)),
});
