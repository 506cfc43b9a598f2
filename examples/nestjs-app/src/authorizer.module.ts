// AuthorizerModule.forRoot(): one authorizer per Nest application, built from the examples'
// environment variables (docs/examples-configuration.md), mounted on the Express platform under
// `mountPath` and injectable into the app's own providers and controllers as AUTHORIZER.
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { authorizerRouter, cors } from '@vp-authorizer/express';
import { authorizerFromConfig, configFromEnv, type ConfiguredAuthorizer, type EnvConfig } from '@vp-authorizer/server';

/** Injection token of the Authorizer: `@Inject(AUTHORIZER) authorizer: Authorizer`. */
export const AUTHORIZER = Symbol('vp-authorizer');
/** Injection token of what the module was built from (the API key, the settings), for a start-up banner. */
export const AUTHORIZER_SETUP = Symbol('vp-authorizer setup');

export interface AuthorizerSetup {
  configured: ConfiguredAuthorizer;
  config: EnvConfig;
  mountPath: string;
}

export interface AuthorizerModuleOptions {
  /** Read by the shared loader (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Where the HTTP API is served (default `/authz`); PUBLIC_BASE_URL's path must match it. */
  mountPath?: string;
  /** Port used for the default public base URL when PUBLIC_BASE_URL is unset (default: PORT, then 3005). */
  defaultPort?: number;
}

@Module({})
export class AuthorizerModule implements OnApplicationShutdown {
  /**
   * The mount: the Express adapter, registered on the platform's Express app exactly as an Express
   * app mounts it (`app.use('/authz', …)`). That is the thinnest bridge: Express strips the mount
   * path, the adapter reads the Node request directly and writes the Node response;
   * `authorizer.fetch` would need a Node → WHATWG Request copy per request instead. Mounted here,
   * while NestFactory.create builds the modules: before app.init() registers Nest's body parsers
   * (and before any the app adds after create), so the authorizer reads its own requests and
   * answers a malformed or oversized body with its own stable codes (OAuth-style on wallet paths),
   * not Nest's. A Nest middleware (`consumer.apply().forRoutes()`) was not used because Nest
   * rewrites its route pattern per platform and version, and whether Express then strips the mount
   * path differs with it. It answers only under the mount path.
   */
  constructor(
    @Inject(HttpAdapterHost) adapterHost: HttpAdapterHost,
    @Inject(AUTHORIZER_SETUP) private readonly setup: AuthorizerSetup,
  ) {
    const { configured, config, mountPath } = setup;
    // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN; browsers send the API key in Authorization.
    adapterHost.httpAdapter.use(mountPath, cors({ ...config.cors, allowHeaders: ['Authorization'] }), authorizerRouter(configured.authorizer));
  }

  /**
   * Global, so any module's controller can inject AUTHORIZER without importing this one. The
   * factory is async: Nest waits for the signing key and the store (a Postgres migration, a Redis
   * connection) before the app starts, and a bad environment fails NestFactory.create naming the variable.
   */
  static forRoot(options: AuthorizerModuleOptions = {}): DynamicModule {
    const env = options.env ?? process.env;
    const mountPath = options.mountPath ?? '/authz';
    return {
      module: AuthorizerModule,
      global: true,
      providers: [
        {
          provide: AUTHORIZER_SETUP,
          useFactory: async (): Promise<AuthorizerSetup> => {
            const config = configFromEnv(env, { defaultPort: options.defaultPort ?? 3005 });
            // The Postgres store's migrations are applied at start, as in the other examples.
            const configured = await authorizerFromConfig(config, { origin: `http://${config.host}:${config.port}`, mountPath, store: { migrate: true } });
            return { configured, config, mountPath };
          },
        },
        { provide: AUTHORIZER, useFactory: (setup: AuthorizerSetup) => setup.configured.authorizer, inject: [AUTHORIZER_SETUP] },
      ],
      exports: [AUTHORIZER, AUTHORIZER_SETUP],
    };
  }

  /** app.close() (or enableShutdownHooks() on SIGTERM): the authorizer, its trusted lists, signer and store. */
  async onApplicationShutdown(): Promise<void> {
    await this.setup.configured.close();
  }
}
