// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import { ConfigError, type AuthorizationQuery, type ClientCallOptions, type ParsedPresentation, type PolicyResult, type ValidateInput, type ValidatorClient } from '@vp-authorizer/core';
import { isIssuerAnchorSource, type IssuerAnchorSource } from '../x509/issuer-anchors.js';
import { configuredContexts } from '../data-integrity/configured-contexts.js';
import { credentialViews, presentationKey, type CredentialView } from './credential-view.js';
import { MatchBudget } from './match-budget.js';
import { expandViewTypes } from './w3c-type-expansion.js';
import { evaluateDcql, type QueryEvaluation } from './dcql/evaluate-dcql.js';
import { evaluatePresentationDefinition } from './presentation-exchange/evaluate-definition.js';
import { transactionDataResult } from './transaction-data.js';
import { trustedIssuerResult } from './trust/trusted-issuer.js';
import { parseTrustedIssuerEntries, type TrustedIssuerEntries } from './trust/trusted-issuer-entries.js';

const NO_ENTRIES: TrustedIssuerEntries = { roots: [], dids: new Set(), didWebDomains: new Map() };

export interface LocalValidatorOptions {
  /**
   * Trusted issuers, mixed in one list (policy `trustedIssuer`); when unset, no `trustedIssuer`
   * results are produced.
   * - A PEM root certificate: a credential's issuer chain (SD-JWT / JWT VC `x5c`, mdoc `x5chain`)
   *   must lead to it.
   * - A DID (`did:key:…`, `did:jwk:…`, `did:web:example.com:issuers:a`, any method): a credential
   *   without a chain whose issuer (JWT `iss`, W3C `issuer` / `issuer.id`, the Data Integrity
   *   proof's verification method controller) is exactly that DID, signed with a key of that
   *   DID's document (the verifier resolves it from the current document).
   * - `did:web:<domain>` (no path): the domain's own DID and every did:web under its paths.
   */
  trustedIssuers?: string[];
  /**
   * Issuer roots chosen per credential type from signed trusted lists (`trustLists()` of
   * @vp-authorizer/trust-lists), beside or instead of `trustedIssuers`; also evaluates DCQL
   * `trusted_authorities` of type `etsi_tl`.
   */
  issuerAnchors?: IssuerAnchorSource;
  /**
   * More JSON-LD contexts by URL (the parsed context document), beside the bundled set, for
   * expanding W3C credential types: DCQL `type_values` (OpenID4VP 1.0 B.1.1) and Presentation
   * Exchange `$.type` filters compare expanded IRIs. Give the verifier's `dataIntegrity.contexts`
   * here too. A credential naming any other context is refused; contexts are never fetched.
   */
  contexts?: Record<string, Record<string, unknown>>;
  /** Clock for certificate validity. Default: the current time. */
  now?: () => Date;
}

/** Does matching compare W3C types: DCQL `type_values`, or a Presentation Exchange path through `type`? */
function comparesTypes(query: AuthorizationQuery): boolean {
  if (query.type === 'DCQL') return query.dcql.credentials.some((c) => c.meta?.type_values !== undefined);
  return query.presentationDefinition.input_descriptors.some((d) => JSON.stringify(d.constraints?.fields ?? []).includes('type'));
}

/**
 * In-process ValidatorClient: DCQL matching (OpenID4VP 1.0 §6, §8.6) or Presentation Exchange
 * (legacy), trusted issuers and transaction-data coverage, over presentations the format policy
 * decoded. It never sees signatures as verified: the verifier runs in parallel and checks them.
 * Results carry `service: 'validator'` and policies `credentialQuery`, `trustedIssuer`,
 * `transactionData`. See the package README for the strictness rule.
 */
export function localValidator(options: LocalValidatorOptions = {}): ValidatorClient {
  // Read once: the roots are fixed at construction, so chain verdict keys digest them once.
  const given = options.trustedIssuers;
  if (given !== undefined && (!Array.isArray(given) || given.length === 0)) {
    throw new ConfigError('localValidator: trustedIssuers must list at least one PEM certificate or DID (omit it to skip the check)');
  }
  const entries: TrustedIssuerEntries | undefined = given === undefined ? undefined : parseTrustedIssuerEntries(given);
  const lists = options.issuerAnchors;
  if (lists !== undefined && !isIssuerAnchorSource(lists)) throw new ConfigError('localValidator: issuerAnchors must be an object with an issuerAnchors() method, e.g. trustLists({ sources, signers })');
  const now = options.now ?? (() => new Date());
  const contexts = configuredContexts(options.contexts, { owner: 'localValidator', path: 'contexts' });

  return {
    async validate(input: ValidateInput, { signal }: ClientCallOptions): Promise<PolicyResult[]> {
      signal.throwIfAborted();
      const cache = new Map<ParsedPresentation, CredentialView[]>();
      const viewsOf = (p: ParsedPresentation): CredentialView[] => {
        let views = cache.get(p);
        if (!views) cache.set(p, (views = credentialViews(p)));
        return views;
      };

      const trustResults: PolicyResult[] = [];
      const untrusted = new Set<string>();
      if (entries !== undefined || lists !== undefined) {
        const at = now();
        for (const p of input.presentations) {
          const result = await trustedIssuerResult(p.path, viewsOf(p), entries ?? NO_ENTRIES, at, lists);
          if (result.error) untrusted.add(presentationKey(p.path));
          trustResults.push(result);
          signal.throwIfAborted();
        }
      }

      // One budget for the whole response: type expansion first, then matching.
      const budget = new MatchBudget();
      if (comparesTypes(input.query)) {
        for (const p of input.presentations) if (!untrusted.has(presentationKey(p.path))) await expandViewTypes(viewsOf(p), contexts, budget, signal);
      }
      const evaluation: QueryEvaluation =
        input.query.type === 'DCQL'
          ? evaluateDcql(input.query.dcql, input.presentations, viewsOf, untrusted, lists, budget)
          : evaluatePresentationDefinition(input.query.presentationDefinition, input.presentations, viewsOf, untrusted, budget);
      const transactionData = transactionDataResult(input.transactionData, evaluation.validQueryIds);
      return [...evaluation.results, ...trustResults, ...(transactionData ? [transactionData] : [])];
    },
  };
}
