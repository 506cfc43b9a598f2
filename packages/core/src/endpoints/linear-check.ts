import * as v from 'valibot';
import type { JsonSchema } from '@valibot/to-json-schema';

/** The JSON Schema each check below is documented by (a custom check has none of its own). */
export const LINEAR_CHECK_JSON_SCHEMAS = new WeakMap<object, JsonSchema>();

/**
 * A schema that runs one predicate over the whole value and reports at most one issue, documented
 * in the OpenAPI document by `jsonSchema`. For what callers send in bulk (a wallet's arrays and
 * records): valibot's union inside an array builds, and then drops, an issue per element that
 * fails a branch — seconds of one thread for a 1 MiB array.
 */
export function linearCheck<T>(predicate: (value: unknown) => boolean, message: string, jsonSchema: JsonSchema): v.CustomSchema<T, string> {
  const schema = v.custom<T, string>(predicate, message);
  LINEAR_CHECK_JSON_SCHEMAS.set(schema, jsonSchema);
  return schema;
}
