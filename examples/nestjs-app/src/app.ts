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
  // Nest's own body parsers (default limits) serve the app's routes only: AuthorizerModule mounts the
  // authorizer before them, so it reads its requests itself under its own limit (bodyLimitBytes).
  // abortOnError off: a bad environment rejects here with its message (Nest would otherwise abort the process).
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ env }), { abortOnError: false, logger: logger ? ['error', 'warn', 'log'] : false });
  const setup = app.get<AuthorizerSetup>(AUTHORIZER_SETUP);
  await app.listen(setup.config.port, setup.config.host);
  return { origin: `http://${setup.config.host}:${setup.config.port}`, apiKey: setup.configured.apiKey, setup, close: () => app.close() };
}
