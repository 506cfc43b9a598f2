// src/generated/ is committed: the types must be what openapi-typescript makes of docs/openapi.json
// today, and the error codes those of core's error table. Regenerate with
// `pnpm --filter @vp-authorizer/client generate` (after building core).
import { readFileSync } from 'node:fs';
import { CODES } from '@vp-authorizer/core';
import { expect, it } from 'vitest';
import { renderApiTypes, renderErrorCodes } from '../scripts/generated-sources.mjs';

const committed = (name: string) => readFileSync(new URL(`../src/generated/${name}`, import.meta.url), 'utf8');

it('src/generated/authorizer-api.ts is generated from the current docs/openapi.json', async () => {
  expect(committed('authorizer-api.ts')).toBe(await renderApiTypes());
});

it("src/generated/error-codes.ts lists every HTTP code of core's error table, with its status and description", () => {
  expect(committed('error-codes.ts')).toBe(renderErrorCodes(CODES));
});
