import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizerError, type Logger } from '@vp-authorizer/core';
import { corsDecision, errorResponse, fromNodeRequest, resolveCorsSource, serve, writeNodeResponse, type CoreResponse } from '@vp-authorizer/core/http';
import { authorizerFromConfig, type ConfiguredAuthorizer } from './authorizer-from-config.js';
import { errorFields } from './json-logger.js';
import type { ServerSettings } from './server-settings.js';

/** How long a shutdown waits for requests in flight by default (ms). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface StartServerOptions {
  /** Structured logs (the server's own lines and the authorizer's). */
  logger: Logger;
  /** Apply the Postgres store's migrations at start (`--migrate`); else an unmigrated schema refuses the start. */
  migrate?: boolean;
}

export interface StandaloneServer {
  /** `http://<host>:<port>` as it listens. */
  origin: string;
  /** The authorizer's public base URL (where wallets and your backend reach it). */
  publicBaseUrl: string;
  /** Where the authorizer is mounted below the origin ('' for the root). */
  mountPath: string;
  configured: ConfiguredAuthorizer;
  /** Requests being answered now (event streams included). */
  inFlight(): number;
  /**
   * Stop accepting connections, end event streams (clients reconnect elsewhere), let requests in
   * flight finish for at most `shutdownTimeoutMs`, cut what is left, then close the authorizer and
   * the store. Resolves `forced: true` when requests had to be cut. Idempotent.
   */
  shutdown(reason?: string): Promise<{ forced: boolean }>;
}

const json = (status: number, body: unknown, headers: [string, string][] = []): CoreResponse => ({
  status,
  headers: [['content-type', 'application/json'], ['cache-control', 'no-store'], ...headers],
  body: JSON.stringify(body),
});

/**
 * Serve the settings' authorizer on node:http: the HTTP API at the path of its public base URL
 * (the root by default), `GET /healthz` (liveness: 200 while the process serves) and `GET /readyz`
 * (readiness: 200 when the store answers, 503 while it does not and while shutting down), with the
 * instances' CORS in front.
 */
export async function startServer(settings: ServerSettings, { logger, migrate = false }: StartServerOptions): Promise<StandaloneServer> {
  const host = settings.host;
  const mountPath = settings.publicBaseUrl ? new URL(settings.publicBaseUrl).pathname.replace(/\/+$/, '') : '';
  const shutdownTimeoutMs = settings.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;

  // Requests that arrive while the authorizer is being built wait for it (a few ms), rather than fail.
  let configured: ConfiguredAuthorizer | undefined;
  let cors: ReturnType<typeof resolveCorsSource> | undefined;
  let markReady!: () => void;
  const built = new Promise<void>((resolve) => (markReady = resolve));
  let draining = false;
  const active = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      streams.delete(res);
    });
    void built
      .then(() => handle(req, res))
      .catch((error: unknown) => {
        logger.error?.({ event: 'server.request_failed', error: errorFields(error) }, 'a request failed outside the authorizer');
        if (!res.headersSent) writeNodeResponse(res, errorResponse(error, 'rp'));
        else res.destroy();
      });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const authorizer = configured!.authorizer;
    // While draining, every answer closes its connection so that clients move to another process.
    if (draining) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    if (path === '/healthz' || path === '/readyz') {
      if (method !== 'GET' && method !== 'HEAD') return writeNodeResponse(res, errorResponse(Object.assign(new AuthorizerError('request.method_not_allowed'), { allow: ['GET', 'HEAD'] }), 'rp'));
      if (path === '/healthz') return writeNodeResponse(res, json(200, { status: 'ok' }));
      if (draining) return writeNodeResponse(res, json(503, { status: 'shutting_down' }, [['retry-after', '1']]));
      // The authorizer's own readiness: one store round trip and its readiness checks (trusted lists), shared by probes arriving together.
      const ready = await authorizer.handle({ method: 'GET', path: '/health/ready', query: new URLSearchParams(), headers: new Headers() });
      if (ready.status < 300) return writeNodeResponse(res, json(200, { status: 'ready' }));
      const notReady = ready.body?.includes('"readiness.not_ready"') ? { status: 'not_ready', message: (JSON.parse(ready.body) as { message: string }).message } : { status: 'store_unavailable' };
      return writeNodeResponse(res, json(503, notReady, [['retry-after', '1']]));
    }
    const below = mountPath === '' ? path : path === mountPath || path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) || '/' : undefined;
    if (below === undefined) return writeNodeResponse(res, errorResponse(new AuthorizerError('request.route_not_found'), 'rp'));
    if (cors!.enabled) {
      const decision = corsDecision(cors!, {
        method,
        origin: req.headers.origin ?? null,
        accessControlRequestMethod: header(req, 'access-control-request-method'),
        accessControlRequestHeaders: header(req, 'access-control-request-headers'),
      });
      for (const [name, value] of decision.headers) res.setHeader(name, value);
      if (decision.preflight) {
        res.statusCode = 204;
        res.setHeader('Content-Length', '0');
        return void res.end();
      }
    }
    if (method === 'GET' && below.endsWith('/events')) streams.add(res);
    const { response, failure } = await serve(authorizer, fromNodeRequest(req, { path: below }));
    if (failure) logger.error?.({ event: 'server.unexpected_error', error: errorFields(failure.error) }, 'unexpected error (answered 500)');
    writeNodeResponse(res, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    configured = await authorizerFromConfig(settings, {
      origin,
      mountPath,
      requireApiKey: true,
      logger,
      onError: (error) => logger.error?.({ event: 'server.unexpected_error', error: errorFields(error) }, 'unexpected error'),
      store: {
        migrate: migrate || settings.postgresMigrate === true,
        migrateHint: '--migrate (or AUTHZ_POSTGRES_MIGRATE=1)',
        log: (message, fields) => logger.info?.(fields, message),
      },
    });
    cors = resolveCorsSource(configured.authorizer);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  markReady();

  let stopping: Promise<{ forced: boolean }> | undefined;
  const done = configured;
  return {
    origin,
    publicBaseUrl: settings.publicBaseUrl ?? `${origin}${mountPath}`,
    mountPath,
    configured: done,
    inFlight: () => active.size,
    shutdown(reason = 'shutdown') {
      stopping ??= (async () => {
        draining = true;
        logger.info?.({ event: 'server.draining', reason, inFlight: active.size, timeoutMs: shutdownTimeoutMs }, 'stopped accepting connections; finishing requests in flight');
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Answers still to come close their connection, so that clients move to another process.
        for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
        // Event streams never finish on their own: drop them now (EventSource clients reconnect).
        // Destroyed, not ended: the stream's writer may still write, which after end() would throw.
        for (const res of streams) res.destroy();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const forced = await Promise.race([closed.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), shutdownTimeoutMs)))]);
        clearTimeout(timer);
        if (forced) {
          logger.warn?.({ event: 'server.requests_cut', inFlight: active.size, timeoutMs: shutdownTimeoutMs }, 'requests still in flight at the shutdown timeout were cut');
          server.closeAllConnections();
          await closed;
        }
        await done.close();
        logger.info?.({ event: 'server.stopped', forced }, 'stopped');
        return { forced };
      })();
      return stopping;
    },
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}
