import type { Clock } from '../config/authorizer-options.js';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import type { EventLog } from '../events/log-events.js';
import type { Instrumentation } from '../events/instrumentation.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerStore } from '../model/authorizer-store.js';
import type { InstanceRuntime } from './instance-runtime.js';
import type { StatusWatchers } from './status-watchers.js';
import type { StoreReadiness } from './store-readiness.js';
import type { WebhookDeliveries } from '../webhooks/webhook-deliveries.js';

/** Everything an operation needs; built once by createAuthorizer. */
export interface AuthorizerContext {
  publicBaseUrl: string;
  store: AuthorizerStore;
  clock: Clock;
  /** How long a claim on a wallet response holds without renewal, in ms (claim-lease.ts). */
  claimLeaseMs: number;
  /** The logger, one function per event of LOG_EVENTS (events/log-events.ts): nothing is logged outside that table. */
  log: EventLog;
  instances: Map<string, InstanceRuntime>;
  /** Tracing and metrics; undefined unless configured (then `store` is already wrapped by it). */
  instrumentation?: Instrumentation;
  /**
   * Publish an event (onEvent, event streams). A status change passes the record as it stands
   * after the change: its webhook (if the instance has webhooks) is queued from it.
   */
  emit(event: AuthorizerEvent, record?: AuthorizationRecord): void;
  /** The process's webhook queue (also checks a create request's webhookUrl against the policy). */
  webhooks: WebhookDeliveries;
  /** Listeners of the event streams (GET …/events) and their cap; `emit` notifies them. */
  statusWatchers: StatusWatchers;
  /** The store probe of GET /health/ready (shared and cached for a second). */
  readiness: StoreReadiness;
  /** Claims this process could not give back while the store was down (set by createAuthorizer). */
  claimReleases?: OwedClaims;
}

/** What the flow needs of the claim releases (implemented in authorization/claim-releases.ts). */
export interface OwedClaims {
  /** Remember a claim to give back once the store answers again. */
  owe(record: Pick<AuthorizationRecord, 'instanceId' | 'id' | 'version' | 'responseClaimedAt' | 'claimExpiresAt'>): void;
  /** Release an owed claim on this record now, if there is one; the record as it then stands. */
  settle(record: AuthorizationRecord): Promise<AuthorizationRecord>;
  close(): void;
}

export function instanceOf(ctx: AuthorizerContext, id: string): InstanceRuntime {
  const instance = ctx.instances.get(id);
  // Records are only ever created for configured instances; a missing one means it was removed from config.
  if (!instance) throw new Error('The instance of this authorization is no longer configured.');
  return instance;
}
