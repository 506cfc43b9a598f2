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
  | { type: 'response_code.resolved'; instanceId: string; authorizationId: string; status: AuthorizationStatus; at: number };

export type EventHook = (event: AuthorizerEvent) => void | Promise<void>;
