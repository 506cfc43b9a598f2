import * as v from 'valibot';

export const DID_METHODS = ['cheqd', 'ebsi', 'ens', 'ethr', 'iden3', 'ion', 'jwk', 'key', 'oyd', 'pkh', 'plc', 'polygonid', 'web', 'webvh'] as const;
export type DidMethod = (typeof DID_METHODS)[number];

/** Methods that can be resolved without a remote resolver; on by default. */
const ENABLED_BY_DEFAULT: readonly DidMethod[] = ['jwk', 'key', 'web'];

const methodSchema = v.strictObject({ enabled: v.optional(v.boolean()) });
const ebsiSchema = v.strictObject({
  enabled: v.optional(v.boolean()),
  registry: v.optional(v.strictObject({ environment: v.picklist(['conformance.v5', 'pilot.v5'], 'methods.ebsi.registry.environment must be "conformance.v5" or "pilot.v5"') })),
});

/** Seed section 2.4. Defaults (decided here): jwk, key and web enabled; others off. */
export const didMethodsConfigSchema = v.pipe(
  v.optional(
    v.strictObject({
      methods: v.optional(
        v.strictObject(
          Object.fromEntries(DID_METHODS.map((m) => [m, v.optional(m === 'ebsi' ? ebsiSchema : methodSchema)])) as {
            [M in DidMethod]: v.OptionalSchema<M extends 'ebsi' ? typeof ebsiSchema : typeof methodSchema, undefined>;
          },
        ),
      ),
      /**
       * How a DID resolver should represent documents. Handed to the verifier in
       * `VerifyInput.didMethods` (a remote verifier resolving through a DID resolver applies it); the
       * local verifier reads keys straight from did:jwk / did:key / did:web and has no choice to make.
       */
      response: v.optional(
        v.strictObject({
          contentType: v.optional(v.picklist(['application/did+ld+json', 'application/did+json'])),
          preferredPublicKeyEncoding: v.optional(v.picklist(['publicKeyBase58', 'publicKeyJwk'])),
        }),
      ),
    }),
    {},
  ),
  v.transform((input) => ({
    methods: Object.fromEntries(DID_METHODS.map((m) => [m, { ...input.methods?.[m], enabled: input.methods?.[m]?.enabled ?? ENABLED_BY_DEFAULT.includes(m) }])) as {
      [M in DidMethod]: Omit<NonNullable<v.InferOutput<M extends 'ebsi' ? typeof ebsiSchema : typeof methodSchema>>, 'enabled'> & { enabled: boolean };
    },
    response: {
      contentType: input.response?.contentType ?? 'application/did+json',
      preferredPublicKeyEncoding: input.response?.preferredPublicKeyEncoding ?? 'publicKeyJwk',
    },
  })),
);

export type DidMethodsConfigInput = v.InferInput<typeof didMethodsConfigSchema>;
export type DidMethodsConfig = v.InferOutput<typeof didMethodsConfigSchema>;
