// The log event and metric tables of docs/observability.md are generated from LOG_EVENTS
// (@vp-authorizer/core) and METRICS (@vp-authorizer/opentelemetry); this test fails when they drift.
// Regenerate with: UPDATE_DOCS=1 pnpm exec vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOG_EVENTS, type LogEventSpec } from '@vp-authorizer/core';
import { METRICS } from '@vp-authorizer/opentelemetry';

const file = new URL('../../docs/observability.md', import.meta.url);
const cell = (text: string) => text.replace(/\|/g, '\\|');

function logTable(): string {
  const rows = (Object.entries(LOG_EVENTS) as [string, LogEventSpec][]).map(
    ([event, spec]) =>
      `| \`${event}\` | ${spec.level} | ${cell(spec.message)} | ${Object.entries(spec.fields)
        .map(([name, meaning]) => `\`${name}\`: ${cell(meaning)}`)
        .join('<br>')} |`,
  );
  return ['| `event` | level | message | fields |', '|---|---|---|---|', ...rows].join('\n');
}

function metricTable(): string {
  const rows = Object.values(METRICS).map((m) => `| \`${m.name}\` | ${m.kind} | \`${m.unit}\` | ${m.attributes.map((a) => `\`${a}\``).join(', ')} | ${cell(m.description)} |`);
  return ['| metric | kind | unit | attributes | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

function fill(text: string, marker: string, table: string): string {
  const pattern = new RegExp(`(<!-- ${marker}:start -->\\n)[\\s\\S]*?(<!-- ${marker}:end -->)`);
  expect(text, `docs/observability.md has no ${marker} markers`).toMatch(pattern);
  return text.replace(pattern, `$1${table}\n$2`);
}

describe('docs/observability.md', () => {
  it('lists every log event and every metric as the code declares them', () => {
    const current = readFileSync(file, 'utf8');
    const expected = fill(fill(current, 'log-events', logTable()), 'metrics', metricTable());
    if (process.env.UPDATE_DOCS === '1') writeFileSync(file, expected);
    else expect(current).toBe(expected);
  });
});
