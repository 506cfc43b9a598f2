/**
 * Minimal pino-compatible logger shape: `logger.info({ ...fields }, 'message')`. Pass a pino
 * instance directly. The core never logs secrets, codes, nonces, tokens or request bodies.
 */
export interface Logger {
  debug?(fields: Record<string, unknown>, message?: string): void;
  info?(fields: Record<string, unknown>, message?: string): void;
  warn?(fields: Record<string, unknown>, message?: string): void;
  error?(fields: Record<string, unknown>, message?: string): void;
}

export const silentLogger: Logger = {};

/** Only what is safe to log about an error: its kind, code and message (ours never hold secrets). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, code: (error as { code?: unknown }).code, message: error.message, stack: error.stack };
  }
  return { name: typeof error };
}
