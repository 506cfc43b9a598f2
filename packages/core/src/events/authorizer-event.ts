import type { AuthorizationStatus } from '../model/authorization-record.js';

export type AuthorizationEventType =
  | 'authorization.created'
  | 'authorization.pending'
  /** A wallet response was claimed and is being processed (status stays `pending`). */
  | 'authorization.processing'
  | 'authorization.authorized'
  | 'authorization.rejected'
  | 'authorization.error'
  | 'authorization.expired';

/** Emitted on every status change and when a response code is resolved. Carries no secrets. */
export type AuthorizerEvent =
  | {
      type: AuthorizationEventType;
      instanceId: string;
      authorizationId: string;
      status: AuthorizationStatus;
      previousStatus?: AuthorizationStatus;
      /** Epoch milliseconds. */
      at: number;
    }
  | { type: 'response_code.resolved'; instanceId: string; authorizationId: string; status: AuthorizationStatus; at: number }
  | WebhookDeliveryEvent;

/**
 * What happened to one webhook delivery (one status change sent to one URL): `delivered` (a 2xx),
 * `failed` (this attempt failed; another follows after a backoff), `gave_up` (no more attempts:
 * they ran out, the receiver answered 410 Gone, or the destination is refused by the outbound
 * policy), `dropped` (removed unsent because the queue was full, or the authorizer closed).
 */
export type WebhookEventType = 'webhook.delivered' | 'webhook.failed' | 'webhook.gave_up' | 'webhook.dropped';

/** A webhook delivery's outcome. Carries no URL (it may hold a token) and no secret. */
export interface WebhookDeliveryEvent {
  type: WebhookEventType;
  instanceId: string;
  authorizationId: string;
  /** The `webhook-id` header: one per status change, the same on every attempt (receivers dedupe by it). */
  webhookId: string;
  /** The status change the delivery carries. */
  eventType: AuthorizationEventType;
  /** Attempts made so far (1 for the first). 0 for a delivery dropped before its first attempt. */
  attempt: number;
  /** The receiver's HTTP status, when it answered. */
  httpStatus?: number;
  /** Why an attempt failed: an `outbound.*` code (for example `outbound.timeout`, `outbound.http_status`). */
  code?: string;
  /** Epoch milliseconds. */
  at: number;
}

export type EventHook = (event: AuthorizerEvent) => void | Promise<void>;
