// Every environment variable the one loader reads (and the server's own AUTHZ_CONFIG_FILE) has its
// row in the table of docs/examples-configuration.md, and every row names a variable that is read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const sources = ['../src/config-from-env.ts', '../src/server-settings.ts'].map(read).join('\n');
// Every name the loader reads or reports ('X' passed to its readers and in its problems, env.X);
// EXPRESS_CORS_ORIGIN is read by core's corsConfigFromEnv.
const readVariables = new Set(
  [...sources.matchAll(/'((?:AUTHZ|EXPRESS|DATA|ISSUER|REDIS|POSTGRES|PUBLIC)_[A-Z0-9_]+|PORT|HOST)'|env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] ?? m[2]!),
);
readVariables.add('EXPRESS_CORS_ORIGIN');
const table = read('../../../docs/examples-configuration.md');
const documented = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

describe('docs/examples-configuration.md', () => {
  it('has a row for every variable the loader reads, and none for a variable it does not', () => {
    expect([...readVariables].filter((v) => !documented.has(v)).sort()).toEqual([]);
    expect([...documented].filter((v) => !readVariables.has(v)).sort()).toEqual([]);
    expect(readVariables.size).toBeGreaterThan(30);
  });
});
