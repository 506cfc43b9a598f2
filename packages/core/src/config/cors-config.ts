import * as v from 'valibot';

export const CORS_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

const originSchema = v.pipe(
  v.string(),
  v.check((o) => o === '*' || /^https?:\/\/[^/?#\s]+$/i.test(o.replace(/\/$/, '')), 'each origin must be "*" or a scheme://host[:port] origin without a path'),
  // Origins are compared as opaque strings; normalise the configured ones once.
  v.transform((o) => (o === '*' ? o : new URL(o).origin)),
);

/** The `cors` object of seed section 2.5, with its documented defaults. */
export const corsConfigSchema = v.pipe(
  v.optional(
    v.strictObject({
      enabled: v.optional(v.boolean(), false),
      allowHeaders: v.optional(v.array(v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'allowHeaders entries must be header names'))), []),
      allowMethods: v.optional(v.array(v.picklist(CORS_METHODS, `allowMethods entries must be one of ${CORS_METHODS.join(', ')}`)), ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
      credentials: v.optional(v.boolean(), false),
      exposeHeaders: v.optional(v.array(v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'exposeHeaders entries must be header names'))), []),
      maxAge: v.optional(v.pipe(v.number(), v.integer('maxAge must be a whole number of seconds'), v.minValue(0, 'maxAge must be between 0 and 86400'), v.maxValue(86400, 'maxAge must be between 0 and 86400')), 86400),
      origin: v.optional(v.pipe(v.array(originSchema), v.minLength(1, 'origin must list at least one origin or "*"')), ['*']),
    }),
    {},
  ),
  v.check(
    (c) => !(c.credentials && c.origin.includes('*')),
    'credentials: true cannot be combined with origin "*": list the allowed origins explicitly',
  ),
);

export type CorsConfigInput = v.InferInput<typeof corsConfigSchema>;
export type CorsConfig = v.InferOutput<typeof corsConfigSchema>;
