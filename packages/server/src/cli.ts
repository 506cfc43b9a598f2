import { parseArgs } from 'node:util';
import { ConfigError } from '@vp-authorizer/core';
import { EnvConfigError } from './config-from-env.js';
import { jsonLogger } from './json-logger.js';
import { loadServerSettings } from './server-settings.js';
import { startServer, type StandaloneServer } from './standalone-server.js';

const USAGE = `usage: vp-authorizer-server [--config <file.json>] [--migrate]

Serves the OpenID4VP authorizer's HTTP API on its own, with GET /healthz (liveness) and
GET /readyz (readiness: the store answers). Settings come from the JSON file (--config, or
AUTHZ_CONFIG_FILE) and from environment variables, which override the file's members
(PORT, HOST, PUBLIC_BASE_URL, AUTHZ_API_KEY, ISSUER_ROOT_PEM_FILE, REDIS_URL, POSTGRES_URL, …).

  --config <file>  the configuration file (JSON)
  --migrate        apply the PostgreSQL store's migrations before serving (AUTHZ_POSTGRES_MIGRATE=1)
  -h, --help       this text

SIGTERM or SIGINT: stop accepting connections, finish requests in flight (at most
AUTHZ_SHUTDOWN_TIMEOUT_MS, default 10000), close the store, exit. Logs are JSON lines on stdout.`;

/** Exit codes: 0 stopped cleanly, 1 refused configuration or failed start (or requests cut at shutdown), 2 usage. */
async function main(argv: string[]): Promise<number | undefined> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { config: { type: 'string' }, migrate: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let server: StandaloneServer;
  let logger = jsonLogger('info');
  try {
    const settings = loadServerSettings({ env: process.env, ...(values.config !== undefined ? { configFile: values.config } : {}) });
    logger = jsonLogger(settings.logLevel ?? 'info');
    server = await startServer(settings, { logger, migrate: values.migrate === true });
    const { configured } = server;
    logger.info(
      {
        event: 'server.listening',
        origin: server.origin,
        publicBaseUrl: server.publicBaseUrl,
        healthz: `${server.origin}/healthz`,
        readyz: `${server.origin}/readyz`,
        store: configured.store,
        signingKey: configured.signingKey,
        issuerRoots: settings.issuerRoots.length,
        issuerDids: settings.issuerDids.length,
        trustLists: settings.trustLists?.sources.length ?? 0,
        ...(settings.configFile ? { configFile: settings.configFile } : {}),
      },
      'listening',
    );
    if (settings.publicBaseUrl === undefined) {
      logger.warn(
        { event: 'server.public_base_url_default', publicBaseUrl: server.publicBaseUrl },
        'PUBLIC_BASE_URL is unset: request_uri and response_uri point at the listening address, which only wallets on this machine reach; set PUBLIC_BASE_URL (or publicBaseUrl in the file) to the https URL wallets use',
      );
    }
    if (configured.signingKey === 'generated') {
      logger.warn(
        { event: 'server.generated_signing_key' },
        'request objects are signed with a development key generated at start: wallets see a new client_id after each restart, and processes sharing a store cannot serve each other\'s authorizations; set AUTHZ_SIGNING_KEY_FILE and AUTHZ_SIGNING_CERT_CHAIN_FILE (or signing in the file)',
      );
    }
  } catch (error) {
    // A refused configuration is a message for a person (no stack): it names each setting and the fix.
    if (error instanceof EnvConfigError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`vp-authorizer-server cannot listen (${code}): ${(error as Error).message}. Choose another PORT / HOST (or port / host in the configuration file).`);
      return 1;
    }
    console.error(`vp-authorizer-server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }

  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopped) {
        // A second signal while draining: stop waiting.
        logger.warn({ event: 'server.forced_exit', signal }, 'second signal: exiting without waiting');
        resolve(1);
        return;
      }
      stopped = true;
      server.shutdown(signal).then(
        ({ forced }) => resolve(forced ? 1 : 0),
        (error: unknown) => {
          logger.error({ event: 'server.shutdown_failed', error: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    let stopped = false;
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

void main(process.argv.slice(2)).then((code) => {
  // Exit explicitly: a client library's timer (a reconnecting Redis client) must not keep a stopped server alive.
  process.exit(code ?? 0);
});
