import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { CborBudget } from './shared/cbor-budget.js';
import type { ExtractedCredential } from '../model/extracted-credential.js';
import type { ParsedJwtVcPresentation, ParsedJwtVp, ParsedLdp, ParsedMdoc, ParsedPresentation, ParsedSdJwt } from '../model/parsed-presentation.js';

/**
 * How a credential is built, which decides how it is matched and verified: SD-JWT VC, ISO mdoc,
 * or a W3C credential (JWT or Data Integrity). `@vp-authorizer/local` keys its verifiers and
 * credential views by family.
 */
export type FormatFamily = 'sd-jwt' | 'mdoc' | 'w3c';

/** The decoded presentations each family yields. */
export interface FamilyPresentation {
  'sd-jwt': ParsedSdJwt;
  mdoc: ParsedMdoc;
  w3c: ParsedJwtVcPresentation | ParsedJwtVp | ParsedLdp;
}

/** Where a presentation sits in the response, copied onto its parsed form. */
export type PresentationRef = Pick<ParsedPresentation, 'path' | 'queryId' | 'index' | 'format'>;

export interface ParseOptions {
  profile?: 'haip';
  /** The response-wide CBOR budget (mdoc); one per wallet response, shared by all presentations. */
  budget?: CborBudget;
  /**
   * DCQL: the claim paths (each as JSON text) the request selected for this presentation
   * (selected-claims.ts). A format whose every claim is selectively disclosable (mdoc) refuses a
   * claim outside them with `format.claim_not_requested`; absent: not constrained.
   */
  selectedClaims?: ReadonlySet<string>;
}

/** The algorithms a verifier accepts, as the format's `vp_formats_supported` entry lists them. */
export type AlgorithmSets = SupportedAlgorithms;

/** A problem in a DCQL credential query; `path` is relative to the credential query. */
export interface QueryIssue {
  path: (string | number)[];
  detail: string;
}

/**
 * Everything about one credential format in one place. Core's format policy, request building
 * and creation checks, and `@vp-authorizer/local`, find a format only through the registry of
 * these (`formats/registry.ts`); nothing else names a format identifier.
 */
export interface FormatDescriptor<F extends FormatFamily = FormatFamily> {
  /** The identifier as DCQL `format`, PE descriptor `format` and `vp_formats_supported` use it. */
  readonly id: string;
  /** Other names of the same format (pre-1.0 drafts); equal to `id` when matching a presentation to a query. */
  readonly aliases: readonly string[];
  readonly family: F;
  /** The parsed kinds `parse` can yield. */
  readonly kinds: readonly FamilyPresentation[F]['kind'][];
  /** HAIP 1.0 allows this format (under `id` only, never an alias). */
  readonly haip: boolean;
  /** Offered in `vp_formats_supported` of every Presentation Exchange request (drafts ≤ 25 wallets expect it). */
  readonly offeredToPresentationExchange: boolean;

  /** Decodes one presentation; throws FormatFailure (path = `ref.path`). Structural only, no trust. */
  parse(value: unknown, ref: PresentationRef, options: ParseOptions): FamilyPresentation[F];
  /** What the relying party reads from `/credentials`. */
  extract(presentation: FamilyPresentation[F]): ExtractedCredential[];
  /** `vp_formats_supported` parameters (OpenID4VP 1.0 appendix B); absent when the format defines none. */
  vpFormatParameters?(algs: AlgorithmSets): Record<string, unknown>;
  /** Pre-1.0 `vp_formats` entry; absent = `{alg: <JOSE algorithms>}`. */
  legacyVpFormatParameters?(algs: AlgorithmSets): Record<string, unknown>;
  /** Rules for a DCQL credential query's `meta` of this format (checked at creation); `format` is the name the query used. */
  dcqlMetaIssues?(meta: Record<string, unknown>, format: string): QueryIssue[];
  /** Rule for a DCQL claim `path` of this format; a detail when it is not acceptable. */
  dcqlClaimPathIssue?(path: readonly (string | number | null)[]): string | undefined;
  /** Does the wallet's `vp_formats_supported` entry (an object) share an algorithm with ours? A detail when not. */
  walletMetadataIssue?(entry: Record<string, unknown>, algs: AlgorithmSets, format: string): string | undefined;
}

/** The descriptor as the registry holds it, whatever its family. */
export type AnyFormatDescriptor = { [F in FormatFamily]: FormatDescriptor<F> }[FormatFamily];
