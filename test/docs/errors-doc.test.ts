// docs/errors.md is generated from the code tables; this test fails when they drift apart.
// Regenerate with: UPDATE_DOCS=1 npx vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FORMAT_ERROR_TITLES } from '@vp-authorizer/core';
import { VALIDATOR_ERROR_TITLES, VERIFIER_ERROR_TITLES } from '@vp-authorizer/local';

const file = new URL('../../docs/errors.md', import.meta.url);

const AUTHORIZER_POLICY_CODES: Record<string, string> = {
  'unexpected-validate-error': 'The validator threw, timed out, or answered with malformed or missing results → status `error`.',
  'unexpected-verify-error': 'The verifier threw, timed out, or answered with malformed or missing results (every presentation needs a result) → status `error`.',
  'validate-failed': 'A remote validator answered 422; its problem details are kept under `error.external.validator` → `rejected`.',
  'verify-failed': 'A remote verifier answered 422; its problem details are kept under `error.external.verifier` → `rejected`.',
  'wallet.<error>': 'The wallet answered with an OAuth error (for example `wallet.access_denied`) → `rejected`.',
  internal: 'Processing failed inside the authorizer after the response was claimed → `error`.',
  'authorizer.processing_abandoned': 'A claimed response was still undecided at the claim deadline (policy timeouts + 15 s after the claim): its process died or lost the store → `error`.',
};

const table = (rows: [string, string][]) => ['| code | meaning |', '|---|---|', ...rows.map(([c, m]) => `| \`${c}\` | ${m.replace(/\|/g, '\\|')} |`)].join('\n');

function render(): string {
  const http = ['| code | HTTP status | wallet `error` | message |', '|---|---|---|---|', ...Object.entries(ERROR_CODES).map(([code, e]) => `| \`${code}\` | ${e.status} | \`${e.oauth}\` | ${e.message} |`)].join('\n');
  return `# Error codes

Generated from the code (\`test/docs/errors-doc.test.ts\`); codes are stable and never change meaning.

## HTTP errors

Relying-party routes answer \`{type: <code>, message, action?, status, errors?}\` (field problems in
\`errors[]\` carry JSON pointers); wallet routes answer \`{error: <wallet error>, error_description}\`.
Messages never contain secrets, tokens or request payloads.

${http}

## Policy result codes

Policy results (\`GET …/policy-response\`) carry RFC 9457-style errors \`{type, title, detail, code}\`
with \`type = https://vp-authorizer.dev/errors/<code>\`.

### Authorizer

${table(Object.entries(AUTHORIZER_POLICY_CODES))}

### Format policy (inside the authorizer)

${table(Object.entries(FORMAT_ERROR_TITLES))}

### \`localValidator\` (@vp-authorizer/local)

${table(Object.entries(VALIDATOR_ERROR_TITLES as Record<string, string>))}

### \`localVerifier\` (@vp-authorizer/local)

${table(Object.entries(VERIFIER_ERROR_TITLES as Record<string, string>))}
`;
}

describe('docs/errors.md', () => {
  it('lists every error code the code can produce, with its current meaning', () => {
    const expected = render();
    if (process.env.UPDATE_DOCS) writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
