import type { ClientCallOptions, ParsedPresentation, PolicyResult, SupportedAlgorithms, VerifierClient, VerifyIdTokenInput, VerifyInput } from '@vp-authorizer/core';
import { dispatchByFamily } from '@vp-authorizer/core/formats';
import { dataIntegrityLibraries } from '../data-integrity/data-integrity-libraries.js';
import { StatusListClient } from '../status-list/status-list-client.js';
import { resolveLocalVerifierOptions, type LocalVerifierOptions, type ResolvedLocalVerifierOptions } from './local-verifier-options.js';
import { failed } from './policy-failure.js';
import { verifyJwtVcPresentation, verifyJwtVp } from './jwt-vc/verify-jwt-vp.js';
import { verifyLdp } from './ldp/verify-ldp-presentation.js';
import { W3cStatusLists } from './ldp/w3c-status-lists.js';
import { coseAlgorithmIds } from './mdoc/cose-sign1.js';
import { verifyMdoc } from './mdoc/verify-mdoc.js';
import { verifySdJwt } from './sd-jwt/verify-sd-jwt.js';
import { verifyIdToken } from './siop/verify-id-token.js';
import type { VerifierContext } from './verifier-context.js';

/** HAIP 1.0 section 7/8: ES256 only. */
const HAIP_ALGS = ['ES256'] as const;

/** The JOSE algorithms enforced for a profile; also what supportedAlgorithms advertises. */
const allowedAlgsFor = (options: ResolvedLocalVerifierOptions, profile: 'haip' | undefined): readonly string[] => (profile === 'haip' ? HAIP_ALGS : options.allowedAlgs);

function context(options: ResolvedLocalVerifierOptions, statusLists: StatusListClient, w3cStatusLists: W3cStatusLists, signal: AbortSignal, input: { profile?: 'haip'; didMethods: VerifyInput['didMethods']; nonce: string; audience: string }): VerifierContext {
  return {
    options,
    now: options.clock.now(),
    haip: input.profile === 'haip',
    allowedAlgs: allowedAlgsFor(options, input.profile),
    signal,
    statusLists,
    w3cStatusLists,
    didMethods: input.didMethods,
    nonce: input.nonce,
    audience: input.audience,
  };
}

const declaration = (jose: readonly string[]): SupportedAlgorithms => Object.freeze({ jose: Object.freeze([...jose]), cose: Object.freeze(coseAlgorithmIds(jose)) });

const unsupported = (presentation: ParsedPresentation): PolicyResult[] => [
  failed(presentation.path, 'format', 'format.unsupported', `The local verifier does not verify ${presentation.kind} presentations`),
];

/** The verifier of each format family; core's format registry says which family a presentation is in. */
function verifyPresentation(presentation: ParsedPresentation, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  return dispatchByFamily<Promise<PolicyResult[]>>(
    presentation,
    {
      'sd-jwt': (p) => verifySdJwt(p, input, ctx),
      mdoc: (p) => verifyMdoc(p, input, ctx),
      w3c: async (p) => (p.kind === 'jwt-vp' ? verifyJwtVp(p, input, ctx) : p.kind === 'jwt-vc' ? verifyJwtVcPresentation(p, input, ctx) : ctx.options.dataIntegrity.enabled ? verifyLdp(p, input, ctx) : unsupported(p)),
    },
    async (p) => unsupported(p),
  );
}

/**
 * In-process VerifierClient with real cryptography: SD-JWT VC (+KB-JWT, Token Status List), mdoc
 * (issuerAuth, deviceSignature over the OpenID4VP SessionTranscript), JWT VC/VP (VCDM 1.1 and
 * 2.0, DID or x5c issuers), W3C Data Integrity credentials and presentations (`ldp_vc` / `ldp_vp`)
 * and SIOPv2 ID tokens. Options are validated here (ConfigError).
 */
export function localVerifier(options: LocalVerifierOptions): VerifierClient {
  const resolved = resolveLocalVerifierOptions(options);
  // Loaded off the construction call; a failure here is retried (and reported) by the first ldp verification.
  if (resolved.dataIntegrity.enabled) setImmediate(() => dataIntegrityLibraries().catch(() => undefined)).unref();
  const statusLists = new StatusListClient({
    outbound: resolved.outboundPolicy,
    timeoutMs: resolved.statusList.timeoutMs,
    maxBytes: resolved.statusList.maxBytes,
    trustAnchors: resolved.trustAnchors,
    ...(resolved.issuerAnchors ? { issuerAnchors: resolved.issuerAnchors } : {}),
    clockSkewMs: resolved.clockSkewMs,
  });
  const w3cStatusLists = new W3cStatusLists();

  // The options are fixed here, so each profile's declaration is computed once; frozen so that
  // no caller can change what every later request advertises.
  const declared = { haip: declaration(allowedAlgsFor(resolved, 'haip')), default: declaration(allowedAlgsFor(resolved, undefined)) };

  return {
    supportedAlgorithms(profile: 'haip' | undefined): SupportedAlgorithms {
      return profile === 'haip' ? declared.haip : declared.default;
    },
    async verify(input: VerifyInput, { signal }: ClientCallOptions): Promise<PolicyResult[]> {
      signal.throwIfAborted();
      const ctx = context(resolved, statusLists, w3cStatusLists, signal, input);
      // Presentations are independent: verify them concurrently (status lists and did:web fetch).
      const perPresentation = await Promise.all(input.presentations.map((p) => verifyPresentation(p, input, ctx)));
      signal.throwIfAborted();
      return perPresentation.flat();
    },
    async verifyIdToken(input: VerifyIdTokenInput, { signal }: ClientCallOptions): Promise<PolicyResult[]> {
      signal.throwIfAborted();
      // SIOPv2 is outside HAIP (HAIP allows only vp_token), so no profile narrowing applies here.
      const results = await verifyIdToken(input, context(resolved, statusLists, w3cStatusLists, signal, input));
      signal.throwIfAborted();
      return results;
    },
  };
}
