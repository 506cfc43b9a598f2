// The resolve operation's Idempotency-Key header is a parameter of the OpenAPI document (so the
// client sends it as a typed `params.header`), and the document states the very rule the
// authorizer enforces: each key below is refused exactly when the declared schema rejects it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizerApiError } from '../src/index.js';
import type { operations } from '../src/generated/authorizer-api.js';
import { type VerifyingAuthorizer, startVerifyingAuthorizer } from './__fixtures__/verifying-authorizer.js';

type Declared = { name: string; in: string; required: boolean; schema: { type: string; minLength: number; maxLength: number; pattern: string } };
const document = JSON.parse(readFileSync(fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url)), 'utf8'));
const parameters: Declared[] = document.paths['/openid4/vp/v1_0/response-code/resolve'].post.parameters ?? [];

// The generated type carries the header: a key of the wrong type would not compile.
const typed: NonNullable<operations['resolveResponseCode']['parameters']['header']>['Idempotency-Key'] = 'a-typed-idempotency-key';

let env: VerifyingAuthorizer;
beforeAll(async () => void (env = await startVerifyingAuthorizer()));
afterAll(() => env?.server.close());

describe('Idempotency-Key on resolve', () => {
  it('is declared as an optional header parameter with a length and a character set', () => {
    const header = parameters.find((p) => p.in === 'header');
    expect(header).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 16, maxLength: 255 } });
    expect(typeof typed).toBe('string');
  });

  it('is refused by the authorizer exactly when the declared schema rejects it', async () => {
    const { schema } = parameters.find((p) => p.name === 'Idempotency-Key')!;
    const declares = (key: string) => key.length >= schema.minLength && key.length <= schema.maxLength && new RegExp(schema.pattern).test(key);
    // (A control character cannot be sent at all: fetch refuses it before the authorizer sees it.)
    const keys = ['k'.repeat(15), 'k'.repeat(16), 'k'.repeat(255), 'k'.repeat(256), `${'k'.repeat(16)} space`, `${'k'.repeat(16)}\u00e9`, '!~'.repeat(8), crypto.randomUUID()];
    for (const key of keys) {
      // An unknown code: a valid key reaches the lookup (404), an invalid one is refused before it (400).
      const error = await env.client.resolveResponseCode({ response_code: 'x'.repeat(43) }, { idempotencyKey: key }).then(
        () => expect.unreachable('an unknown code cannot resolve'),
        (e: unknown) => e as AuthorizerApiError,
      );
      expect(error, JSON.stringify(key)).toBeInstanceOf(AuthorizerApiError);
      expect(error.type, JSON.stringify(key)).toBe(declares(key) ? 'response_code.not_found' : 'request.invalid_idempotency_key');
    }
    expect(keys.filter(declares)).toHaveLength(4);
  });
});
