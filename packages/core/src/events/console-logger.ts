import type { Logger } from './logger.js';

/**
 * `logger: 'console'`: one line per event at info and above (debug lines only with
 * `logger: 'console:debug'`), as `level event message {fields}`. For development; pass pino or
 * another structured logger in production.
 */
export function consoleLogger(options: { debug?: boolean } = {}): Logger {
  const line = (level: string, write: (text: string) => void) => (fields: Record<string, unknown>, message?: string) => {
    const { event, ...rest } = fields;
    const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
    write(`[vp-authorizer] ${level} ${String(event ?? '')}${message ? ` ${message}` : ''}${extra}`);
  };
  // console.* looked up per call, so that a test or host replacing them is honoured.
  return {
    ...(options.debug ? { debug: line('debug', (t) => console.debug(t)) } : {}),
    info: line('info', (t) => console.info(t)),
    warn: line('warn', (t) => console.warn(t)),
    error: line('error', (t) => console.error(t)),
  };
}
