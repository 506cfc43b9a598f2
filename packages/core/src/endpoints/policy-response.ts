import * as v from 'valibot';
import { loadForInstance } from '../authorization/transitions.js';
import { noteFirstRead, readableData } from '../authorization/data-retention.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID, policyResultSchema } from './shared-schemas.js';

export const policyResponseSchema = v.pipe(v.object({ authorizationId: v.string(), data: v.array(policyResultSchema) }), v.title('PolicyResponse'));
export type PolicyResponse = v.InferOutput<typeof policyResponseSchema>;

/** 410 once the results were erased; the first read starts `dataRetention.afterRead`. */
export async function getPolicyResponse(ctx: AuthorizerContext, instanceId: string, id: string): Promise<PolicyResponse> {
  const record = readableData(await loadForInstance(ctx, instanceId, id));
  const answer = { authorizationId: record.id, data: record.policyResults };
  await noteFirstRead(ctx, record);
  return answer;
}

export const policyResponseEndpoint = defineEndpoint({
  operationId: 'getPolicyResponse',
  name: 'authorizations.policy_response',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/policy-response',
  audience: 'rp',
  summary: 'Read the policy results (format, validate, verify) of an authorization',
  pathParams: AUTHORIZATION_ID,
  responses: {
    200: { description: 'Every policy result; a failed one carries an error instead of data.', contentType: 'application/json', schema: policyResponseSchema },
  },
  errors: [404, 410, 503],
  errorDescriptions: { 410: 'authorization.data_erased: the disclosed data was erased (its openId4vp.dataRetention window ended, or DELETE …/personal-data); the status remains readable.' },
  run: ({ ctx, params, instance }) => json(200, getPolicyResponse(ctx, instance.id, params[0]!)),
});
