import type { AuthorizationStatus } from '../authorization/authorization-record.js';
import type { PolicyResult } from '../clients/policy-result.js';
import type { ExtractedCredential } from '../formats/shared/extracted-credential.js';
import { isProcessing, loadForInstance } from '../authorization/transitions.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';

/**
 * `{status}`, plus `processing: true` while a wallet response is claimed and being evaluated
 * (an extra member, so clients of the hosted API are unaffected). A claim that outlives its
 * deadline ends `error` (`authorizer.processing_abandoned`) on this read.
 */
export async function getStatus(ctx: AuthorizerContext, instanceId: string, id: string): Promise<{ status: AuthorizationStatus; processing?: true }> {
  const record = await loadForInstance(ctx, instanceId, id);
  return isProcessing(record) ? { status: record.status, processing: true } : { status: record.status };
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
