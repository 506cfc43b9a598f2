import * as v from 'valibot';

/** A JSON object (valibot's record/object schemas also let arrays through). */
export const plainObject = (message: string) =>
  v.pipe(
    v.record(v.string(), v.unknown(), message),
    v.check((o) => !Array.isArray(o), message),
  );
