import type { AuthorizationEventType, AuthorizerEvent } from '../events/authorizer-event.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';

/** The status change a webhook carries: the event of the change and the record right after it. */
export type StatusChange = Extract<AuthorizerEvent, { type: `authorization.${string}` }>;

export interface WebhookMessage {
  /** `webhook-id`: stable for one status change of one authorization, whichever attempt carries it. */
  id: string;
  eventType: AuthorizationEventType;
  /** The exact bytes sent and signed. */
  body: Uint8Array;
}

/**
 * The JSON body, in the Standard Webhooks shape `{type, timestamp, data}`: `data` is the body of
 * GET …/status (`status`, `processing` while a response is being processed) with the ids and the
 * previous status. The id is derived from the record version and the event, so the same change
 * always has the same id and two changes never share one.
 */
export function webhookMessage(event: StatusChange, record: AuthorizationRecord): WebhookMessage {
  const step = event.type.slice('authorization.'.length);
  const data = {
    authorizationId: record.id,
    instanceId: record.instanceId,
    status: event.status,
    ...(event.type === 'authorization.processing' ? { processing: true } : {}),
    ...(event.previousStatus ? { previousStatus: event.previousStatus } : {}),
  };
  const body = JSON.stringify({ type: event.type, timestamp: new Date(event.at).toISOString(), data });
  return { id: `msg_${record.id}_${record.version}_${step}`, eventType: event.type, body: new TextEncoder().encode(body) };
}
