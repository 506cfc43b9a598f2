// NestJS 11 host app on the Express platform: AuthorizerModule.forRoot() serves the authorizer
// under /authz and injects it into the app's own VerificationsController.
// Settings come from environment variables (docs/examples-configuration.md), checked before it listens.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { AUTHORIZER_SETUP, type AuthorizerSetup } from './authorizer.module.js';

export interface StartedExample {
  origin: string;
  apiKey: string;
  setup: AuthorizerSetup;
  close(): Promise<void>;
}

/** Build the app from `env` (default `process.env`) and listen on PORT / HOST (defaults 3005, 127.0.0.1). */
export async function startExample({ env = process.env, logger = true }: { env?: Record<string, string | undefined>; logger?: boolean } = {}): Promise<StartedExample> {
  // Nest's body parsers read bodies before any mounted router; their default limit (100 kB) would
  // refuse a large wallet response before the authorizer sees it, so they get the authorizer's
  // own limit (bodyLimitBytes, 1 MiB), which it still enforces itself.
  // abortOnError off: a bad environment rejects here with its message (Nest would otherwise abort the process).
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ env }), { bodyParser: false, abortOnError: false, logger: logger ? ['error', 'warn', 'log'] : false });
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { limit: '1mb', extended: false });
  const setup = app.get<AuthorizerSetup>(AUTHORIZER_SETUP);
  await app.listen(setup.config.port, setup.config.host);
  return { origin: `http://${setup.config.host}:${setup.config.port}`, apiKey: setup.configured.apiKey, setup, close: () => app.close() };
}
