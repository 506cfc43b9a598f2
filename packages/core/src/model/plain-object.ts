import * as v from 'valibot';

/** A JSON object, kept as given. valibot's record/object schemas let arrays through (and copy them). */
export const plainObject = (message: string) =>
  v.custom<Record<string, unknown>>((o) => o !== null && typeof o === 'object' && !Array.isArray(o), message);
