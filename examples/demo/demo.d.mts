import type { ExampleConfig } from '../shared/config-from-env.mjs';

export interface RunningDemo {
  /** `http://<host>:<port>`: the verifier page is at `/`, the test wallet at `/wallet`. */
  origin: string;
  apiKey: string;
  config: ExampleConfig;
  publicBaseUrl: string;
  /** The root wallets must trust for the demo's request signatures (PEM). */
  trustAnchorPem: string;
  /** The root of the demo issuer, trusted by the demo's verifier (PEM). */
  issuerRootPem: string;
  /** Open event streams of the authorizer and the listeners and timers they hold. */
  eventStreamStats(): { streams: number; listeners: number; timers: number };
  close(): Promise<void>;
}

export function startDemo(options?: { port?: number; host?: string; env?: Record<string, string | undefined> }): Promise<RunningDemo>;
