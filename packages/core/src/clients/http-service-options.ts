import * as v from 'valibot';
import { ConfigError } from '../errors/config-error.js';

/** Options shared by the HTTP validator and verifier clients. */
export interface HttpServiceClientOptions {
  /** Base URL of the service (http or https); endpoint paths are appended (`/validate`, `/verify`, `/verify-jwt`). */
  url: string;
  /** Extra request headers, for example `{ authorization: 'Bearer …' }`. Never logged. */
  headers?: Record<string, string>;
  /** Deadline for the whole call in milliseconds, every attempt and backoff included. Default 10 000. */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (network error, 502/503/504, 429). Default 2. */
  retries?: number;
  /** Fetch implementation (tests, proxies). Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface ResolvedHttpServiceOptions {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retries: number;
  fetch: typeof fetch;
}

function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  if (url.username !== '' || url.password !== '') return 'url must not carry credentials; use headers';
  if (url.search !== '' || url.hash !== '') return 'url must not have a query or fragment';
  return undefined;
}

const optionsSchema = v.object({
  url: v.pipe(v.string(), v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? urlProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: problem });
  })),
  headers: v.optional(v.record(v.string(), v.string()), {}),
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), 10_000),
  retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10)), 2),
  fetch: v.optional(v.custom<typeof fetch>((f) => typeof f === 'function', 'fetch must be a function')),
});

/** Validated once at construction (fail fast); throws ConfigError naming the bad option. */
export function resolveHttpServiceOptions(options: HttpServiceClientOptions, what: string): ResolvedHttpServiceOptions {
  const parsed = v.safeParse(optionsSchema, options);
  if (!parsed.success) {
    throw new ConfigError(
      `${what}: invalid options`,
      parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    );
  }
  const fetchImpl = parsed.output.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new ConfigError(`${what}: no fetch implementation is available; pass options.fetch`);
  return {
    baseUrl: parsed.output.url.replace(/\/+$/, ''),
    headers: parsed.output.headers,
    timeoutMs: parsed.output.timeoutMs,
    retries: parsed.output.retries,
    fetch: fetchImpl,
  };
}
