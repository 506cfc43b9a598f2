import { ClaimReleases } from './authorization/claim-releases.js';
import { sweepExpired } from './authorization/transitions.js';
import { authorizerOptionsSchema, type AuthorizerOptions, type ResolvedInstanceOptions } from './config/authorizer-options.js';
import { consoleLogger } from './events/console-logger.js';
import { mountPathCheck, mountPathMessage } from './config/mount-path-check.js';
import { parseConfig } from './config/validate-config.js';
import { AuthorizerError } from './errors/authorizer-error.js';
import { ApiKeyTable } from './crypto/api-key-table.js';
import { jsonCopy } from './store/json-copy.js';
import { ConfigError } from './errors/config-error.js';
import { describeError, guardLogger, silentLogger } from './events/logger.js';
import { createEventLog } from './events/log-events.js';
import type { RequestSpan } from './events/instrumentation.js';
import type { AuthorizerEvent } from './events/authorizer-event.js';
import type { CorsConfig } from './config/cors-config.js';
import { corsConfigFromInstances } from './cors/cors-source.js';
import type { CoreRequest, CoreResponse, HandleOptions } from './wire/core-request.js';
import { fromFetchRequest, toFetchResponse } from './http/fetch-bridge.js';
import { isExpectedError, refusalResponse } from './wire/responses.js';
import { checkJsonDepth } from './wire/parse-body.js';
import { Refusal } from './errors/refusal.js';
import { answerTo, audienceOfPath, matchRoute } from './http/routes.js';
import { failureResponse, serve } from './http/serve.js';
import { getStatus, type StatusResponse } from './endpoints/authorization-status.js';
import { createAuthorization, readCreateBody, type CreateAuthorizationResponse } from './endpoints/create-authorization.js';
import { endpointInput, schemaOutput } from './endpoints/endpoint-input.js';
import { getCredentials, type CredentialsResponse } from './endpoints/credentials.js';
import { erasePersonalDataNow } from './endpoints/erase-personal-data.js';
import { dcApiJwtBodySchema, dcApiPlainBodySchema, receiveDcApiResponse, type DcApiAnswer } from './endpoints/dc-api.js';
import { receiveWalletResponse, type WalletResponseAnswer } from './endpoints/direct-post.js';
import { getPolicyResponse, type PolicyResponse } from './endpoints/policy-response.js';
import { getRequestObject, type RequestObjectParams } from './endpoints/request-object.js';
import { readResolveBody, resolveResponseCode, type ResolvedResponseCode } from './endpoints/resolve-response-code.js';
import type { AuthorizerContext } from './runtime/authorizer-context.js';
import { createInstanceRuntime, type InstanceRuntime } from './runtime/instance-runtime.js';
import { memoryStore } from './store/memory-store.js';
import { instrumentedStore } from './runtime/instrumented-store.js';
import { StatusWatchers } from './runtime/status-watchers.js';
import { StoreReadiness } from './runtime/store-readiness.js';
import { outboundFetchPolicy } from './outbound/outbound-fetch-policy.js';
import { WebhookDeliveries } from './webhooks/webhook-deliveries.js';
import { webhookOutboxOf } from './webhooks/webhook-outbox-of.js';
import { checkWebhookUrls } from './webhooks/check-webhook-urls.js';
import { webhookMessage, type StatusChange } from './webhooks/webhook-message.js';
import type { AuthorizationRecord } from './model/authorization-record.js';

export interface Authorizer {
  /** Serve one request given as the core's request object. Never throws. */
  handle(request: CoreRequest, options?: HandleOptions): Promise<CoreResponse>;
  /** Web-standard handler; strips `basePath` from the URL path before routing. */
  fetch(request: Request, options?: HandleOptions): Promise<Response>;
  /** Hand an unexpected error to the configured `onError` (serve() does, for failures outside `handle()`). */
  reportError(error: unknown): void;
  /** serve() tells it where the host mounted the handler; the first mount point other than publicBaseUrl's path is warned about, once. */
  checkMountPath(mountPath: string): void;
  /** Body cap serve() applies to what the bridges read (requests given to handle() come already capped). */
  readonly bodyLimitBytes: number;
  /**
   * The CORS configuration the instances' `config.cors` objects agree on (the defaults, CORS off,
   * when none sets one), for the adapters' `cors(authorizer)`. Throws ConfigError when they differ.
   */
  corsConfig(): CorsConfig;

  // The endpoint table's operations as typed methods (instanceId = the instance an RP call is
  // made for). Answers are typed by the endpoints' response schemas; bodies that arrive over HTTP
  // are `unknown` here too, because they are validated the same way.
  createAuthorization(instanceId: string, body: unknown): Promise<CreateAuthorizationResponse>;
  getStatus(instanceId: string, authorizationId: string): Promise<StatusResponse>;
  getPolicyResponse(instanceId: string, authorizationId: string): Promise<PolicyResponse>;
  getCredentials(instanceId: string, authorizationId: string): Promise<CredentialsResponse>;
  /**
   * Erase the data a wallet disclosed for a finished authorization now (`DELETE …/personal-data`):
   * its outcome, status and timings remain. Idempotent; AuthorizerError `authorization.not_finished`
   * before the outcome.
   */
  erasePersonalData(instanceId: string, authorizationId: string): Promise<void>;
  getRequestObject(authorizationId: string, params?: RequestObjectParams): Promise<string>;
  submitWalletResponse(authorizationId: string, mode: 'direct_post' | 'direct_post.jwt', form: Record<string, string>): Promise<WalletResponseAnswer>;
  submitDcApiResponse(instanceId: string, authorizationId: string, mode: 'dc_api' | 'dc_api.jwt', body: unknown): Promise<DcApiAnswer>;
  /**
   * With `expectedAuthorizationId` (the id kept in the user's session), a code issued for another authorization is refused and invalidated.
   * With `idempotencyKey` (the Idempotency-Key header), a retry with the same key within 60 s after a lost answer gets the same result again.
   */
  resolveResponseCode(instanceId: string, responseCode: string, options?: { expectedAuthorizationId?: string; idempotencyKey?: string }): Promise<ResolvedResponseCode>;
  /**
   * Move overdue authorizations to `expired` now, and erase disclosed data past its retention
   * (`dataRetention`); returns how many were expired. Also runs on a timer.
   */
  sweepExpired(): Promise<number>;
  /** Webhook deliveries this process holds (waiting, retrying or in flight), requests in flight, timers. */
  webhookStats(): { queued: number; inFlight: number; timers: number };
  /** Event streams (GET …/events) open in this process, with the status listeners and timers they hold. */
  eventStreamStats(): { streams: number; listeners: number; timers: number };
  /** Resolves once every instance's signing key is loaded (fails on a bad key). */
  ready(): Promise<void>;
  /**
   * Stop timers (and the default memory store's sweep), end event streams, and stop webhook
   * delivery (in-flight requests are aborted; held deliveries are handed back to the outbox of a
   * store you passed in, for another process to deliver, and otherwise dropped with a
   * `webhook.dropped` event each). Does not close a store you passed in.
   */
  close(): Promise<void>;
}

/** Build an authorizer. Options and every instance configuration are validated here, once. */
export function createAuthorizer(options: AuthorizerOptions): Authorizer {
  const parsed = parseConfig(authorizerOptionsSchema, options, 'authorizer options');
  const instances = new Map<string, InstanceRuntime>(parsed.instances.map((instance, i) => [instance.id, createInstanceRuntime(instance, i, parsed.clients, parsed)]));
  const ownStore = parsed.store ? undefined : memoryStore({ clock: parsed.clock });
  const logger = parsed.logger === 'console' || parsed.logger === 'console:debug' ? consoleLogger({ debug: parsed.logger === 'console:debug' }) : parsed.logger;
  const log = createEventLog(guardLogger(logger ?? silentLogger));
  const onEvent = parsed.onEvent;
  const { maxStreams, maxStreamsPerInstance } = parsed.eventStreams;
  const statusWatchers = new StatusWatchers({
    ...parsed.eventStreams,
    maxStreamsPerInstance: maxStreamsPerInstance ?? (parsed.instances.length > 1 ? Math.ceil(maxStreams / 2) : maxStreams),
  });
  const webhookSettings = { ...parsed.webhookDelivery, outbound: parsed.webhookDelivery.outbound ?? outboundFetchPolicy() };
  checkWebhookUrls(parsed.instances, webhookSettings.outbound);

  function publish(event: AuthorizerEvent): void {
    statusWatchers.notify(event);
    if (!onEvent) return;
    // A failing hook must never break or slow the flow that emitted the event.
    try {
      void Promise.resolve(onEvent(event)).catch((error: unknown) => log['hook.on_event_failed']?.({ eventType: event.type, err: describeError(error) }));
    } catch (error) {
      log['hook.on_event_failed']?.({ eventType: event.type, err: describeError(error) });
    }
  }
  const webhooks = new WebhookDeliveries(webhookSettings, parsed.clock, log, publish, webhookOutboxOf(parsed, instances));

  /** Queue the webhook of one status change, when its instance has webhooks and a URL for it. */
  function queueWebhook(event: StatusChange, record: AuthorizationRecord): void {
    const config = instances.get(record.instanceId)?.webhooks;
    const url = record.request.webhookUrl ?? config?.url;
    if (!config || url === undefined) return;
    try {
      webhooks.enqueue(webhookMessage(event, record), { instanceId: record.instanceId, authorizationId: record.id, url, key: config.key, sequence: record.version });
    } catch (error) {
      // The change is stored and will be answered: a webhook problem must never turn it into a failure.
      log['webhook.queue_failed']?.({ eventType: event.type, authorizationId: record.id, err: describeError(error) });
    }
  }

  const instrumentation = parsed.instrumentation;
  const store = parsed.store ?? ownStore!;

  const ctxStore = instrumentation ? instrumentedStore(store, instrumentation) : store;
  const ctx: AuthorizerContext = {
    publicBaseUrl: parsed.publicBaseUrl,
    store: ctxStore,
    readiness: new StoreReadiness(ctxStore, parsed.clock),
    ...(instrumentation ? { instrumentation } : {}),
    clock: parsed.clock,
    claimLeaseMs: parsed.claimLeaseMs,
    log,
    instances,
    statusWatchers,
    webhooks,
    emit(event: AuthorizerEvent, record?: AuthorizationRecord) {
      publish(event);
      if (record && event.type.startsWith('authorization.')) queueWebhook(event as StatusChange, record);
    },
  };

  ctx.claimReleases = new ClaimReleases(ctx);
  assertDistinctApiKeys(parsed.instances);
  const instanceFor = (id: string) => {
    const instance = instances.get(id);
    if (!instance) throw new AuthorizerError('authorization.not_found', { message: 'Unknown instance.' });
    return instance;
  };

  // Every key of every instance, compared in constant time on each request.
  const apiKeys = new ApiKeyTable(parsed.instances.map((instance) => [instances.get(instance.id)!, instance.apiKeys] as const));
  function authenticate(request: CoreRequest): InstanceRuntime {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    if (!match) throw new AuthorizerError('auth.unauthorized');
    const found = apiKeys.ownerOf(match[1]!);
    if (!found) throw new AuthorizerError('auth.unauthorized');
    return found;
  }

  /**
   * The one place that decides who hears an unexpected error: the configured `onError`, and a
   * per-call one (an adapter's or fetch()'s caller's) unless it is the same function. Each once.
   */
  const perCall = (hook: HandleOptions['onError']) => (hook !== parsed.onError ? hook : undefined);
  function report(error: unknown, hook?: HandleOptions['onError']): void {
    for (const reporter of [parsed.onError, perCall(hook)]) {
      try {
        reporter?.(error);
      } catch {
        // A host's reporter failing must not turn into an unanswered request.
      }
    }
  }

  async function handleRequest(request: CoreRequest, handleOptions: HandleOptions = {}, span?: RequestSpan): Promise<CoreResponse> {
    // Read only for the log line that reports it.
    const started = log['request.handled'] ? ctx.clock.now() : 0;
    let routeName = 'unmatched';
    try {
      const { route, params } = matchRoute(request.method, request.path);
      routeName = route.name;
      span?.route({ operationId: route.operationId, path: route.path });
      const instance = route.audience === 'rp' ? authenticate(request) : undefined;
      if (instance) span?.setAttributes({ 'vp.instance_id': instance.id });
      const input = endpointInput(route, { ctx, request, params, instance: instance!, body: undefined });
      const answer = route.runOrRefuse ? await route.runOrRefuse(input) : await route.run(input);
      const refused = answer instanceof Refusal;
      const response = answerTo(request.method, refused ? refusalResponse(answer, audienceOfPath(request.path)) : answer);
      if (refused) {
        // Logged and traced as a thrown refusal is, below.
        log['request.refused']?.({ route: routeName, status: response.status, code: answer.refused });
        span?.answered(response.status, answer.refused);
        return response;
      }
      log['request.handled']?.({ route: routeName, status: response.status, durationMs: ctx.clock.now() - started });
      span?.answered(response.status);
      return response;
    } catch (error) {
      const response = failureResponse(error, request);
      const expected = isExpectedError(error);
      if (expected) {
        log['request.refused']?.({ route: routeName, status: response.status, code: (error as { code?: string }).code });
      } else {
        log['request.failed']?.({ route: routeName, err: describeError(error) });
        report(error, handleOptions.onError);
      }
      span?.answered(response.status, expected ? (error as { code?: string }).code : 'server.internal_error');
      return response;
    }
  }

  // Without instrumentation, handle is handleRequest itself: nothing is added to the request path.
  const handle = !instrumentation
    ? handleRequest
    : (request: CoreRequest, handleOptions?: HandleOptions): Promise<CoreResponse> =>
        instrumentation.request({ method: request.method, header: (name) => request.headers.get(name) }, (span) => handleRequest(request, handleOptions, span));

  const sweep = () => sweepExpired(ctx);
  const timer =
    parsed.sweepIntervalMs > 0
      ? setInterval(() => {
          sweep().catch((error: unknown) => log['sweep.failed']?.({ err: describeError(error) }));
        }, parsed.sweepIntervalMs)
      : undefined;
  timer?.unref();

  let cors: CorsConfig | undefined;
  // Without a logger the mount warning still reaches the developer, as a process warning.
  const emitWarning = (globalThis as { process?: { emitWarning?: (message: string, type: string) => void } }).process?.emitWarning;
  const checkMountPath = mountPathCheck(parsed.publicBaseUrl, (fields) => {
    if (log['config.mount_path_mismatch']) log['config.mount_path_mismatch'](fields);
    else emitWarning?.(mountPathMessage(fields), 'VpAuthorizerWarning');
  });
  const self = { handle, bodyLimitBytes: parsed.bodyLimitBytes, reportError: (error: unknown) => report(error), checkMountPath };

  return {
    handle,
    async fetch(request: Request, handleOptions: HandleOptions = {}) {
      // Same path as every adapter: serve() reads (413 before anything else) and renders failures.
      const onError = perCall(handleOptions.onError);
      const { response } = await serve(self, fromFetchRequest(request, { basePath: parsed.basePath }), onError ? { onError } : {});
      return toFetchResponse(response);
    },
    corsConfig: () => (cors ??= corsConfigFromInstances(options.instances)),
    reportError: (error) => report(error),
    checkMountPath,
    bodyLimitBytes: parsed.bodyLimitBytes,
    // In-process bodies get the depth check an HTTP body gets when it is parsed (no JS recursion
    // may meet a hostile depth later: valibot, the store's copies, JSON encoding).
    createAuthorization: async (instanceId, body) => {
      const instance = instanceFor(instanceId);
      checkJsonDepth(body);
      return createAuthorization(ctx, instance, readCreateBody(body, instance));
    },
    getStatus: (instanceId, id) => getStatus(ctx, instanceFor(instanceId).id, id),
    // A store may hand out read-only records (the memory store's are frozen): the caller gets its own copy.
    getPolicyResponse: async (instanceId, id) => jsonCopy(await getPolicyResponse(ctx, instanceFor(instanceId).id, id)),
    getCredentials: async (instanceId, id) => jsonCopy(await getCredentials(ctx, instanceFor(instanceId).id, id)),
    erasePersonalData: (instanceId, id) => erasePersonalDataNow(ctx, instanceFor(instanceId).id, id),
    getRequestObject: (id, params = {}) => getRequestObject(ctx, id, params),
    submitWalletResponse: (id, mode, form) => receiveWalletResponse(ctx, id, mode, form),
    submitDcApiResponse: async (instanceId, id, mode, body) =>
      receiveDcApiResponse(ctx, instanceFor(instanceId).id, id, mode, mode === 'dc_api' ? schemaOutput(dcApiPlainBodySchema, body) : schemaOutput(dcApiJwtBodySchema, body)),
    resolveResponseCode: (instanceId, code, options = {}) =>
      resolveResponseCode(
        ctx,
        instanceFor(instanceId),
        readResolveBody({ response_code: code, ...(options.expectedAuthorizationId !== undefined ? { authorization_id: options.expectedAuthorizationId } : {}) }),
        options.idempotencyKey,
      ),
    sweepExpired: sweep,
    eventStreamStats: () => statusWatchers.stats(),
    webhookStats: () => webhooks.stats(),
    async ready() {
      await Promise.all([...instances.values()].map((i) => i.signing()));
    },
    async close() {
      if (timer) clearInterval(timer);
      ctx.claimReleases?.close();
      statusWatchers.closeAll();
      await webhooks.close();
      ownStore?.close();
    },
  };
}

export type { AuthorizerOptions, InstanceOptions, ResolvedAuthorizerOptions, ResolvedInstanceOptions } from './config/authorizer-options.js';
export type { HandleOptions } from './wire/core-request.js';

/** One key must identify one instance: a shared key would silently pick whichever came first. */
function assertDistinctApiKeys(instances: ResolvedInstanceOptions[]): void {
  const seen = new Map<string, string>();
  for (const instance of instances) {
    for (const key of instance.apiKeys) {
      const other = seen.get(key);
      if (other !== undefined && other !== instance.id) throw new ConfigError(`Instances "${other}" and "${instance.id}" share an API key; every key must belong to one instance.`);
      seen.set(key, instance.id);
    }
  }
}
