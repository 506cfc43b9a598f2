import { ClaimReleases } from './authorization/claim-releases.js';
import { sweepExpired } from './authorization/transitions.js';
import { authorizerOptionsSchema, type AuthorizerOptions } from './config/authorizer-options.js';
import type { CorsConfig } from './config/cors-config.js';
import { mountPathCheck, mountPathMessage } from './config/mount-path-check.js';
import { parseConfig } from './config/validate-config.js';
import { corsConfigFromInstances } from './cors/cors-source.js';
import { describeError } from './events/logger.js';
import { fromFetchRequest, toFetchResponse } from './http/fetch-bridge.js';
import { createRequestHandler } from './http/request-handler.js';
import { serve } from './http/serve.js';
import { createAuthorizerContext } from './runtime/authorizer-context.js';
import { typedMethods } from './typed-methods.js';
import type { CreateAuthorizationResponse } from './model/created-authorization.js';
import type { StatusResponse, PolicyResponse, CredentialsResponse, RequestObjectParams, WalletResponseAnswer, DcApiAnswer, ResolvedResponseCode } from './endpoints/index.js';
import type { CoreRequest, CoreResponse, HandleOptions } from './wire/core-request.js';

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
   * delivery (in-flight requests are aborted, held deliveries dropped with a `webhook.dropped`
   * event each). Does not close a store you passed in.
   */
  close(): Promise<void>;
}

/**
 * Build an authorizer: validate the options (once, every instance configuration with them), build
 * the context every operation gets (runtime/authorizer-context.ts), the handler every request goes
 * through (http/request-handler.ts) and the typed methods (typed-methods.ts), and start the sweep.
 */
export function createAuthorizer(options: AuthorizerOptions): Authorizer {
  const parsed = parseConfig(authorizerOptionsSchema, options, 'authorizer options');
  const { ctx, close } = createAuthorizerContext(parsed);
  ctx.claimReleases = new ClaimReleases(ctx);
  const { handle, report, perCall } = createRequestHandler(ctx, parsed.instances, parsed.onError);

  const sweep = () => sweepExpired(ctx);
  const timer =
    parsed.sweepIntervalMs > 0
      ? setInterval(() => {
          sweep().catch((error: unknown) => ctx.log['sweep.failed']?.({ err: describeError(error) }));
        }, parsed.sweepIntervalMs)
      : undefined;
  timer?.unref();

  let cors: CorsConfig | undefined;
  // Without a logger the mount warning still reaches the developer, as a process warning.
  const emitWarning = (globalThis as { process?: { emitWarning?: (message: string, type: string) => void } }).process?.emitWarning;
  const checkMountPath = mountPathCheck(parsed.publicBaseUrl, (fields) => {
    if (ctx.log['config.mount_path_mismatch']) ctx.log['config.mount_path_mismatch'](fields);
    else emitWarning?.(mountPathMessage(fields), 'VpAuthorizerWarning');
  });
  const self = { handle, bodyLimitBytes: parsed.bodyLimitBytes, reportError: (error: unknown) => report(error), checkMountPath };

  return {
    ...typedMethods(ctx),
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
    sweepExpired: sweep,
    eventStreamStats: () => ctx.statusWatchers.stats(),
    webhookStats: () => ctx.webhooks.stats(),
    async ready() {
      await Promise.all([...ctx.instances.values()].map((i) => i.signing()));
    },
    async close() {
      if (timer) clearInterval(timer);
      await close();
    },
  };
}
