import * as v from 'valibot';
import { ConfigError } from '../errors/config-error.js';
import { unknownKeyIssues } from './unknown-keys.js';

/**
 * Parse `input` with `schema` or throw a ConfigError listing every issue with its path. Unknown
 * members are refused with the closest known name (the schema alone would drop them silently).
 */
export function parseConfig<S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> {
  const unknown = unknownKeyIssues(schema, input);
  const result = v.safeParse(schema, input);
  if (result.success && unknown.length === 0) return result.output;
  // A strict object's own "Invalid key" issue says less than the one above.
  const issues = (result.issues ?? [])
    .filter((issue) => !(unknown.length > 0 && issue.type === 'strict_object' && issue.expected === 'never'))
    .map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }));
  throw new ConfigError(`Invalid ${what}:`, [...unknown, ...issues]);
}
