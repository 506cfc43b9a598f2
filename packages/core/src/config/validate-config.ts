import * as v from 'valibot';
import { ConfigError } from '../errors/config-error.js';

/** Parse `input` with `schema` or throw a ConfigError listing every issue with its path. */
export function parseConfig<S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }));
  throw new ConfigError(`Invalid ${what}:`, issues);
}
