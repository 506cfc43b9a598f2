import createClient from 'openapi-fetch';
import type { paths } from './authorizer-api.js';

/**
 * A typed client of the authorizer's HTTP API, generated from docs/openapi.json (`pnpm generate`
 * rewrites `authorizer-api.d.ts`). The same code works against a hosted authorizer: only the
 * base URL and the key change.
 */
export function createAuthorizerClient(options: { baseUrl: string; apiKey: string; fetch?: typeof fetch }) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type AuthorizerClient = ReturnType<typeof createAuthorizerClient>;
