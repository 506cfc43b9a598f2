import { ConfigError } from '@vp-authorizer/core';
import * as v from 'valibot';
import { parseTrustAnchors } from '../x509/trust-anchors.js';

/** JOSE algorithms the local verifier can check. HAIP narrows this to ES256. */
export const SUPPORTED_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
export type SupportedAlg = (typeof SUPPORTED_ALGS)[number];

const ms = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max)), fallback);
const positive = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)), fallback);

export const localVerifierOptionsSchema = v.strictObject({
  /** PEM trust anchors: IACAs (mdoc) and SD-JWT / status-list issuer roots. */
  trustAnchors: v.array(v.pipe(v.string(), v.nonEmpty('a trust anchor must be a PEM certificate'))),
  clock: v.optional(v.custom<{ now(): number }>((c) => typeof (c as { now?: unknown } | null)?.now === 'function', 'clock must be an object with a now() method returning epoch milliseconds')),
  /** Tolerance for nbf/exp/iat comparisons. */
  clockSkewMs: ms(86_400_000, 300_000),
  /** Oldest accepted KB-JWT / ID token `iat` (plus skew). */
  kbJwtMaxAgeMs: positive(86_400_000, 300_000),
  statusList: v.optional(
    v.strictObject({
      enabled: v.optional(v.boolean(), true),
      timeoutMs: positive(60_000, 3_000),
      maxBytes: positive(100_000_000, 1_000_000),
      /** Accept http: status list URIs (tests only). Default false: https only. */
      allowHttp: v.optional(v.boolean(), false),
    }),
    {},
  ),
  /** did:web document fetch limits. */
  didWeb: v.optional(
    v.strictObject({
      timeoutMs: positive(60_000, 3_000),
      maxBytes: positive(100_000_000, 200_000),
      /** Resolve did:web on IP literals, localhost and non-443 ports (tests only). Default false. */
      allowInsecureHosts: v.optional(v.boolean(), false),
    }),
    {},
  ),
  /** Used for status lists and did:web; defaults to the global fetch. */
  fetch: v.optional(v.custom<typeof fetch>((f) => typeof f === 'function', 'fetch must be a function')),
  allowedAlgs: v.optional(v.pipe(v.array(v.picklist(SUPPORTED_ALGS, `allowedAlgs entries must be one of ${SUPPORTED_ALGS.join(', ')}`)), v.minLength(1, 'allowedAlgs must not be empty')), [
    'ES256',
    'ES384',
    'ES512',
    'EdDSA',
  ]),
});

export type LocalVerifierOptions = v.InferInput<typeof localVerifierOptionsSchema>;
export type ResolvedLocalVerifierOptions = v.InferOutput<typeof localVerifierOptionsSchema> & { clock: { now(): number }; fetch: typeof fetch };

/** Validates options once at construction; throws ConfigError with readable issues (including bad PEM). */
export function resolveLocalVerifierOptions(options: LocalVerifierOptions): ResolvedLocalVerifierOptions {
  const result = v.safeParse(localVerifierOptionsSchema, options);
  if (!result.success) {
    throw new ConfigError(
      'Invalid localVerifier options',
      result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    );
  }
  const resolved = result.output;
  resolved.trustAnchors.forEach((pem, index) => {
    try {
      parseTrustAnchors([pem]);
    } catch (error) {
      throw new ConfigError('Invalid localVerifier options', [{ path: `trustAnchors.${index}`, message: (error as Error).message.replace(/^Trust anchor \d+ /, 'trust anchor ') }]);
    }
  });
  return { ...resolved, clock: resolved.clock ?? { now: () => Date.now() }, fetch: resolved.fetch ?? ((...args) => globalThis.fetch(...args)) };
}
