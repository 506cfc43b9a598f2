import type { AuthorizationStatus } from '../authorization/authorization-record.js';
import type { PolicyResult } from '../clients/policy-result.js';
import type { ExtractedCredential } from '../format/extracted-credential.js';
import { loadForInstance } from '../authorization/transitions.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';

export async function getStatus(ctx: AuthorizerContext, instanceId: string, id: string): Promise<{ status: AuthorizationStatus }> {
  const record = await loadForInstance(ctx, instanceId, id);
  return { status: record.status };
}

export async function getPolicyResponse(ctx: AuthorizerContext, instanceId: string, id: string): Promise<{ authorizationId: string; data: PolicyResult[] }> {
  const record = await loadForInstance(ctx, instanceId, id);
  return { authorizationId: record.id, data: record.policyResults };
}

/** Claims are only kept for authorized responses: unverified data is never handed out. */
export async function getCredentials(ctx: AuthorizerContext, instanceId: string, id: string): Promise<{ authorizationId: string; credentials: ExtractedCredential[] }> {
  const record = await loadForInstance(ctx, instanceId, id);
  return { authorizationId: record.id, credentials: record.status === 'authorized' ? record.credentials : [] };
}
