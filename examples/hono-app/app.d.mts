import type { ExampleConfig } from '../shared/config-from-env.mjs';

/** Start the example; `env` (default `process.env`) is read by the shared loader, `port` / `host` override PORT / HOST. */
export function startExample(options?: { port?: number; host?: string; env?: Record<string, string | undefined> }): Promise<{ origin: string; apiKey: string; config: ExampleConfig; close(): Promise<void> }>;
