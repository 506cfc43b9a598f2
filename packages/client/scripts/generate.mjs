#!/usr/bin/env node
// Rewrites src/generated/ from docs/openapi.json and core's error-code table (core must be built).
import { writeFileSync } from 'node:fs';
import { CODES } from '@vp-authorizer/core';
import { renderApiTypes, renderErrorCodes } from './generated-sources.mjs';

writeFileSync(new URL('../src/generated/authorizer-api.ts', import.meta.url), await renderApiTypes());
writeFileSync(new URL('../src/generated/error-codes.ts', import.meta.url), renderErrorCodes(CODES));
console.log('Wrote src/generated/authorizer-api.ts and src/generated/error-codes.ts');
