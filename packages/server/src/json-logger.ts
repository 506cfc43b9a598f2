import type { Logger } from '@vp-authorizer/core';
import { LOG_LEVELS, type LogLevel } from './config-from-env.js';

/** Where log lines go: one JSON document per line. */
export type LineSink = (line: string) => void;

export interface JsonLogger extends Required<Logger> {
  /** The lowest level written. */
  readonly level: LogLevel;
}

/**
 * A pino-compatible logger that writes one JSON object per line (`time`, `level`, `msg`, then the
 * fields), for log collectors. It writes what it is given: the core never passes secrets, codes,
 * nonces or tokens, and the server logs none either.
 */
export function jsonLogger(level: LogLevel = 'info', sink: LineSink = (line) => process.stdout.write(`${line}\n`)): JsonLogger {
  const threshold = LOG_LEVELS.indexOf(level);
  const write = (at: LogLevel) => (fields: Record<string, unknown>, message?: string) => {
    if (LOG_LEVELS.indexOf(at) < threshold) return;
    let line: string;
    try {
      line = JSON.stringify({ time: new Date().toISOString(), level: at, ...(message !== undefined ? { msg: message } : {}), ...fields });
    } catch {
      // A field that cannot be serialised (a cycle, a BigInt) loses the fields, not the line.
      line = JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, event: fields.event, note: 'fields not serialisable' });
    }
    sink(line);
  };
  return { level, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** What a log line says about an error: its kind, code, message and stack (the project's errors carry no secrets). */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, code: (error as { code?: unknown }).code, message: error.message, stack: error.stack };
  return { name: typeof error };
}
