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
    .map((issue) => ({ path: v.getDotPath(issue) ?? '', message: withoutReceived(issue) }));
  throw new ConfigError(`Invalid ${what}:`, [...unknown, ...issues]);
}

/**
 * An issue's message without the value it received: configuration holds API keys, secrets and
 * store URLs with credentials, and an error message ends up in logs. Only a missing member
 * (`undefined`) is still said, since it gives nothing away.
 */
function withoutReceived(issue: v.BaseIssue<unknown>): string {
  const { message, received } = issue;
  if (received === 'undefined' || received === '') return message;
  // valibot's own messages: "Invalid type: Expected string but received 123", "Invalid length: Received 3".
  const trimmed = message.replace(` but received ${received}`, '').replace(`: Received ${received}`, ': the value given is not accepted');
  // A custom message quoting the value; short values ("1", "true") would also match ordinary words.
  return received.length >= 4 ? trimmed.split(received).join('(value withheld)') : trimmed;
}
