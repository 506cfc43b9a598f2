// docs/errors.md is generated from core's one code table (CODES); this test fails when they drift apart.
// Regenerate with: UPDATE_DOCS=1 pnpm exec vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODES, ERROR_TYPE_BASE, type Code, type CodeEntry, type PolicyProducer } from '@vp-authorizer/core';

const file = new URL('../../docs/errors.md', import.meta.url);

const cell = (text: string) => text.replace(/\|/g, '\\|');
const rows = <E extends CodeEntry>(kind: E['kind'], keep: (entry: E) => boolean = () => true) =>
  (Object.entries(CODES) as [Code, CodeEntry][]).filter((row): row is [Code, E] => row[1].kind === kind && keep(row[1] as E));

const PRODUCERS: Record<PolicyProducer, string> = {
  authorizer: 'Authorizer',
  format: 'Format policy (inside the authorizer)',
  localValidator: '`localValidator` (@vp-authorizer/local)',
  localVerifier: '`localVerifier` (@vp-authorizer/local)',
};

function render(): string {
  const http = [
    '| code | HTTP status | wallet `error` | message |',
    '|---|---|---|---|',
    ...rows<Extract<CodeEntry, { kind: 'http' }>>('http').map(([code, e]) => `| \`${code}\` | ${e.status} | \`${e.oauth}\` | ${cell(e.message)} |`),
  ].join('\n');
  const policies = (Object.entries(PRODUCERS) as [PolicyProducer, string][])
    .map(([producer, heading]) => {
      const list = rows<Extract<CodeEntry, { kind: 'policy' }>>('policy', (e) => e.by.includes(producer));
      const hosted = list.some(([, e]) => e.hostedName !== undefined);
      const head = hosted ? '| code | title | meaning | hosted API name (`vidosType`) |\n|---|---|---|---|' : '| code | title | meaning |\n|---|---|---|';
      const body = list.map(([code, e]) => `| \`${code}\` | ${cell(e.title)} | ${cell(e.note ?? '')} |${hosted ? ` ${e.hostedName ? `\`${e.hostedName}\`` : ''} |` : ''}`);
      return `### ${heading}\n\n${head}\n${body.join('\n')}`;
    })
    .join('\n\n');
  const thrown = [
    '| code | package | meaning |',
    '|---|---|---|',
    ...rows<Extract<CodeEntry, { kind: 'error' }>>('error').map(([code, e]) => `| \`${code}\` | \`${e.by}\` | ${cell(e.title)} |`),
  ].join('\n');
  return `# Error codes

Generated from the one code table, \`CODES\` in \`@vp-authorizer/core\` (\`test/docs/errors-doc.test.ts\`).
Every code follows one style, \`area.snake_case\`; codes are stable and never change meaning. The
types \`Code\`, \`ErrorCode\` (HTTP), \`PolicyCode\` and \`PolicyCodeOf<producer>\` are derived from the
table, so a code that is not listed here does not typecheck.

## HTTP errors

Relying-party routes answer \`{type: <code>, message, action?, status, errors?}\` (field problems in
\`errors[]\` carry JSON pointers); wallet routes answer \`{error: <wallet error>, error_description}\`.
Messages never contain secrets, tokens or request payloads. \`ConfigError\` carries \`config.invalid\`,
\`StoreUnavailableError\` \`store.unavailable\`, \`ServiceCallError\` one of the \`service.*\` codes.

${http}

## Policy result codes

Policy results (\`GET …/policy-response\`) carry RFC 9457-style errors \`{type, title, detail, code}\`
with \`type = ${ERROR_TYPE_BASE}<code>\`. Where the hosted authorizer API names the same error, that
name is sent as \`vidosType\`. A wallet's own error response becomes \`wallet.<error>\`: the values of
OpenID4VP and OAuth are listed; any other well-formed value passes through the same way, and a
malformed one becomes \`wallet.unknown\`.

${policies}

## Error classes

Thrown to the host program by the packages' functions; while a response is processed they are
caught and become one of the policy codes above.

${thrown}
`;
}

describe('docs/errors.md', () => {
  it('lists every code of the one table, with its kind and current meaning', () => {
    const expected = render();
    if (process.env.UPDATE_DOCS) writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('every code follows the one naming style, area.snake_case', () => {
    const offStyle = Object.keys(CODES).filter((code) => !/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/.test(code));
    expect(offStyle).toEqual([]);
  });
});
