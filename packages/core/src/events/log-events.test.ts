import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOG_EVENTS, createEventLog, type LogEventName } from './log-events.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the log event table', () => {
  it('writes each event at its level, with its name, its fields and its fixed message', () => {
    const lines: { level: string; fields: Record<string, unknown>; message?: string }[] = [];
    const at = (level: string) => (fields: Record<string, unknown>, message?: string) => void lines.push({ level, fields, ...(message ? { message } : {}) });
    const log = createEventLog({ debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') });
    log['request.refused']?.({ route: 'createAuthorization', status: 401, code: 'auth.unauthorized' });
    log['sweep.failed']?.({ err: { name: 'Error' } });
    expect(lines).toEqual([
      { level: 'info', fields: { event: 'request.refused', route: 'createAuthorization', status: 401, code: 'auth.unauthorized' }, message: 'request refused' },
      { level: 'warn', fields: { event: 'sweep.failed', err: { name: 'Error' } }, message: 'expiry sweep failed' },
    ]);
  });

  it('has no function for an event whose level the logger lacks, so its fields are never built', () => {
    const log = createEventLog({ warn: () => undefined });
    expect(log['request.handled']).toBeUndefined();
    expect(log['request.refused']).toBeUndefined();
    expect(log['sweep.failed']).toBeTypeOf('function');
  });

  it('is the only way core logs, and every event in it is logged somewhere', () => {
    const files = sources(SRC).filter((file) => !file.startsWith(join(SRC, 'events')));
    const text = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    // A direct logger call would log a line missing from the table (and from docs/observability.md).
    expect(text).not.toMatch(/\blogger\.(debug|info|warn|error)\b/);
    const used = new Set([...text.matchAll(/\blog\['([a-z_.]+)'\]/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual((Object.keys(LOG_EVENTS) as LogEventName[]).sort());
  });
});
