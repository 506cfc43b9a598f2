import { ContextRefused } from './context-refused.js';
import type { DocumentLoader } from './data-integrity-libraries.js';
import { PolicyFailure } from '../verifier/policy-failure.js';
import { DEFAULT_DOCUMENT_LIMITS, measureDocument, type DocumentLimits, type DocumentMeasure } from './document-limits.js';

/** The credential's types as IRIs, or why they could not be expanded (the credential is then refused). */
export type ExpandedTypes =
  | { ok: true; types: readonly string[] }
  | { ok: false; code: 'data_integrity.context_unknown' | 'data_integrity.limit_exceeded' | 'data_integrity.document_invalid'; detail: string };

interface JsonLd {
  expand(input: unknown, options: { documentLoader: DocumentLoader }): Promise<unknown>;
}

let loading: Promise<JsonLd> | undefined;
/** jsonld (the library jsonld-signatures runs on), loaded on first use like the Data Integrity libraries. */
function jsonLd(): Promise<JsonLd> {
  loading ??= import('jsonld').then(
    (module: { default?: JsonLd } & JsonLd) => module.default ?? module,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const remote = (url: string, document: unknown) => ({ contextUrl: null, documentUrl: url, document });

/**
 * Expansions by their input (`@context` and `type` as JSON), per context set: credentials of one
 * issuer repeat both, and the same input under another context set may expand differently.
 */
const MEMO_SIZE = 256;
const memos = new WeakMap<ReadonlyMap<string, unknown>, Map<string, ExpandedTypes>>();
function remember(memo: Map<string, ExpandedTypes>, key: string, value: ExpandedTypes): ExpandedTypes {
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
  return value;
}

/** What a credential's type expansion reads, and how much processing it can cause. */
export interface ExpansionInput {
  input: { '@context': unknown; type: unknown };
  /** The input as JSON: its length measures the work, and it keys the memo. */
  json: string;
  /**
   * The input measured against the Data Integrity document limits (the verifier's one measure of
   * JSON-LD work), or why it exceeds them: then nothing is expanded.
   */
  measure: DocumentMeasure | PolicyFailure;
  /**
   * Context definitions the credential brings itself, as measured: embedded context objects
   * (scoped ones at any depth), scoped context URLs and `@import`s. JSON-LD processes each scoped
   * context when it is defined, so these, not characters, dominate the cost of a hostile `@context`.
   */
  embeddedContexts: number;
}

/** The input of a credential's type expansion; undefined when it carries no `@context` (it has no IRIs). */
export function expansionInput(credential: Record<string, unknown>, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): ExpansionInput | undefined {
  const context = credential['@context'];
  if (context === undefined) return undefined;
  const input = { '@context': context, type: credential.type ?? [] };
  let measure: DocumentMeasure | PolicyFailure;
  try {
    measure = measureDocument(input, limits);
  } catch (error) {
    if (!(error instanceof PolicyFailure)) throw error;
    measure = error;
  }
  return { input, json: JSON.stringify(input), measure, embeddedContexts: measure instanceof PolicyFailure ? 0 : measure.embeddedContexts };
}

/**
 * The credential's `type` values expanded with its `@context` (JSON-LD 1.1 expansion), as
 * OpenID4VP 1.0 B.1.1 compares them with DCQL `type_values`. Only `@context` and `type` are
 * expanded, within the Data Integrity document limits, through a loader that serves the given
 * contexts (the bundled set plus configured ones) and refuses any other URL without fetching it.
 * A term no context defines has no IRI and is left out (no query can name it). `charge` is called
 * before any work that the memo does not save, and may throw to refuse it.
 */
export async function expandCredentialTypes(
  expansion: ExpansionInput,
  contexts: ReadonlyMap<string, unknown>,
  charge: (input: ExpansionInput) => void,
): Promise<ExpandedTypes> {
  // Over the limits: refused before any work, so nothing to charge.
  if (expansion.measure instanceof PolicyFailure) return { ok: false, code: 'data_integrity.limit_exceeded', detail: expansion.measure.detail ?? expansion.measure.message };
  const key = expansion.json;
  let memo = memos.get(contexts);
  if (memo === undefined) memos.set(contexts, (memo = new Map()));
  const known = memo.get(key);
  if (known !== undefined) return known;
  // Only work done is charged: a remembered expansion costs a lookup. Throws when over budget.
  charge(expansion);
  const unknown = [...expansion.measure.contexts].find((url) => !contexts.has(url));
  if (unknown !== undefined) return { ok: false, code: 'data_integrity.context_unknown', detail: `the credential's @context names a context that is neither bundled nor configured (${unknown.slice(0, 200)}); contexts are never fetched` };
  const documentLoader: DocumentLoader = async (url) => {
    const document = contexts.get(url);
    if (document === undefined) throw new ContextRefused(url);
    return remote(url, document);
  };
  let result: ExpandedTypes;
  try {
    const expanded = await (await jsonLd()).expand(expansion.input, { documentLoader });
    const node = Array.isArray(expanded) ? (expanded[0] as Record<string, unknown> | undefined) : undefined;
    const types = Array.isArray(node?.['@type']) ? (node['@type'] as unknown[]) : [];
    result = { ok: true, types: Object.freeze(types.filter((t): t is string => typeof t === 'string' && ABSOLUTE_IRI.test(t))) };
  } catch (error) {
    if (error instanceof ContextRefused || (error as { details?: { cause?: unknown } })?.details?.cause instanceof ContextRefused) {
      return { ok: false, code: 'data_integrity.context_unknown', detail: "the credential's @context loads a context that is neither bundled nor configured; contexts are never fetched" };
    }
    result = { ok: false, code: 'data_integrity.document_invalid', detail: "the credential's @context and type are not valid JSON-LD" };
  }
  return remember(memo, key, result);
}
