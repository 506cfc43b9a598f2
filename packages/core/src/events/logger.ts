/**
 * Minimal pino-compatible logger shape: `logger.info({ ...fields }, 'message')`. Pass a pino
 * instance directly. Every line's fields carry `event`, a name from LOG_EVENTS (log-events.ts).
 * The core never logs secrets, codes, nonces, tokens or request bodies.
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

/** A logger whose calls can never throw into the request path (a broken sink must not turn a 200 into a 500). */
export function guardLogger(logger: Logger): Logger {
  const wrap = (level: keyof Logger) => {
    const fn = logger[level];
    if (!fn) return undefined;
    return (fields: Record<string, unknown>, message?: string) => {
      try {
        fn.call(logger, fields, message);
      } catch {
        // Swallowed on purpose: logging is best effort.
      }
    };
  };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') } as Logger;
}
