import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';

// The committed client types must be what `pnpm generate` makes of docs/openapi.json today.
it('src/authorizer-api.d.ts is generated from the current docs/openapi.json (regenerate: pnpm --filter @vp-authorizer/example-rp-backend generate)', async () => {
  const generated = astToString(await openapiTS(new URL('../../../docs/openapi.json', import.meta.url)));
  const committed = readFileSync(new URL('../src/authorizer-api.d.ts', import.meta.url), 'utf8');
  // The CLI adds a header comment; the declarations must match exactly.
  const body = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
  expect(body(committed)).toBe(body(generated));
});
