import type { Logger } from './logger.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEventSpec {
  level: LogLevel;
  /** The log line's message: fixed per event, so that searches and alerts can rely on it. */
  message: string;
  /** Every field the line carries besides `event`, with what it holds. None may hold a secret. */
  fields: Readonly<Record<string, string>>;
}

const ERR = 'the error: `name`, `code`, `message`, `stack` (messages of ours never carry secrets)';
const ROUTE = 'the endpoint `name` (`unmatched` before routing), never a path with ids';
const AUTHORIZATION_ID = 'the authorization id (not a secret: it is in the request URI)';
// A webhook line names the delivery, never its URL (it may carry a token) nor the key.
const WEBHOOK = {
  webhookId: 'the `webhook-id` header, stable across the attempts of one delivery',
  instanceId: 'the instance',
  authorizationId: AUTHORIZATION_ID,
  eventType: 'the status change event type',
  attempt: 'attempts made so far',
} as const;

/**
 * Every line the core logs: its stable `event` name (the `event` field of the line), its level
 * and its fields. `docs/observability.md` is generated from it. Renaming an event or a field is
 * a breaking change for whoever alerts on it.
 */
export const LOG_EVENTS = {
  'request.handled': {
    level: 'debug',
    message: 'request handled',
    fields: { route: ROUTE, status: 'HTTP status answered', durationMs: 'time spent in the authorizer, in milliseconds' },
  },
  'request.refused': {
    level: 'info',
    message: 'request refused',
    fields: { route: ROUTE, status: 'HTTP status answered (4xx, or 503 when the store is down)', code: 'the error code from the CODES table' },
  },
  'request.failed': {
    level: 'error',
    message: 'unexpected error',
    fields: { route: ROUTE, err: ERR },
  },
  'response.processing_failed': {
    level: 'error',
    message: 'response processing failed; marking the authorization as error',
    fields: { authorizationId: AUTHORIZATION_ID, err: ERR },
  },
  'response.store_failed': {
    level: 'warn',
    message: 'store failed while processing a response',
    fields: {
      authorizationId: AUTHORIZATION_ID,
      err: ERR,
      released: 'whether the claim on the record was given back at once',
      releaseOwed: 'whether it will be given back once the store answers again (the wallet may retry when either is true)',
    },
  },
  'response.lease_lost': {
    level: 'warn',
    message: 'late commit refused: the claim on this response was taken over or ended while it was processed',
    fields: {
      authorizationId: AUTHORIZATION_ID,
      refusedStatus: 'the status this process would have stored (not stored)',
      storedStatus: 'the status the authorization has in the store, which stands',
    },
  },
  'claim.released': {
    level: 'info',
    message: 'claim released after the store recovered; the wallet may retry',
    fields: { authorizationId: AUTHORIZATION_ID, attempts: 'how many release attempts it took' },
  },
  'authorization.data_erased': {
    level: 'info',
    message: 'the data a wallet disclosed for an authorization was erased; its outcome remains unless the record was deleted',
    fields: {
      instanceId: 'the instance',
      authorizationId: AUTHORIZATION_ID,
      cause: '`retention` (its dataRetention window ended) or `request` (the relying party erased it)',
      deleted: 'whether the whole record leaves the store now (`dataRetention.mode: delete`)',
    },
  },
  'response_code.authorization_mismatch': {
    level: 'warn',
    message: 'a response code was presented for another authorization; it was invalidated',
    fields: { instanceId: 'the instance the code was resolved for' },
  },
  'hook.on_event_failed': {
    level: 'warn',
    message: 'onEvent hook failed',
    fields: { eventType: 'the type of the event the hook was given', err: ERR },
  },
  'sweep.failed': {
    level: 'warn',
    message: 'expiry sweep failed',
    fields: { err: ERR },
  },
  'webhook.delivered': {
    level: 'info',
    message: 'webhook delivered',
    fields: { ...WEBHOOK, httpStatus: "the receiver's 2xx status" },
  },
  'webhook.retrying': {
    level: 'info',
    message: 'webhook attempt failed; retrying',
    fields: { ...WEBHOOK, code: 'the outbound error code from the CODES table', httpStatus: "the receiver's status, when it answered" },
  },
  'webhook.gave_up': {
    level: 'warn',
    message: 'webhook given up',
    fields: { ...WEBHOOK, code: 'the outbound error code from the CODES table', httpStatus: "the receiver's status, when it answered", err: `${ERR}; only when the failure is not an outbound error` },
  },
  'webhook.dropped': {
    level: 'warn',
    message: 'webhook dropped: the queue is full',
    fields: { ...WEBHOOK, reason: 'whether the oldest queued delivery or the new one was dropped' },
  },
  'webhook.queue_failed': {
    level: 'error',
    message: 'webhook could not be queued',
    fields: { eventType: 'the status change event type', authorizationId: AUTHORIZATION_ID, err: ERR },
  },
  'webhook.taken_over': {
    level: 'info',
    message: 'webhook taken over from the outbox: the process that held it stopped renewing its lease',
    fields: { ...WEBHOOK },
  },
  'webhook.outbox_failed': {
    level: 'warn',
    message: 'webhook outbox unavailable: a new delivery goes out from this process only; lease work is retried at the next tick',
    fields: { step: '`add` (a new delivery), `renew` or `take_over` (the lease timer)', err: ERR },
  },
  'config.mount_path_mismatch': {
    level: 'warn',
    message: "mounted at a path other than publicBaseUrl's: wallets will get 404",
    fields: { mountPath: 'where the host mounted the handler (the first request whose mount point differs)', publicBasePath: "publicBaseUrl's path, where wallets are sent" },
  },
  'events.reread_failed': {
    level: 'debug',
    message: 'event stream re-read failed',
    fields: { err: ERR },
  },
} as const satisfies Record<string, LogEventSpec>;

export type LogEventName = keyof typeof LOG_EVENTS;
export type LogFieldsOf<E extends LogEventName> = { [K in keyof (typeof LOG_EVENTS)[E]['fields']]: unknown };

/**
 * One function per log event, absent when the logger has no method for the event's level: call
 * sites write `ctx.log['request.handled']?.({...})`, so with a silent logger the fields are not
 * even built.
 */
export type EventLog = { readonly [E in LogEventName]?: (fields: LogFieldsOf<E>) => void };

export function createEventLog(logger: Logger): EventLog {
  const log: Partial<Record<LogEventName, (fields: object) => void>> = {};
  for (const [event, spec] of Object.entries(LOG_EVENTS) as [LogEventName, LogEventSpec][]) {
    const write = logger[spec.level];
    if (write) log[event] = (fields) => write.call(logger, { event, ...fields }, spec.message);
  }
  return log as EventLog;
}
