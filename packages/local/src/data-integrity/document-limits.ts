import { PolicyFailure } from '../verifier/policy-failure.js';

/**
 * Bounds on a Data Integrity document, checked before any JSON-LD processing: expansion and
 * canonicalization cost grows with the number of values and blank nodes, so the whole
 * presentation is measured once, up front. Values chosen so the worst document within them
 * keeps the event loop stall within budget (bench/hostile-stalls.mjs measures it).
 */
export interface DocumentLimits {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most JSON values (objects, arrays, strings, numbers, …) in the whole presentation. */
  maxValues: number;
  /** Longest array: JSON-LD expansion of one property's values grows with the square of their number. */
  maxArrayLength: number;
  /**
   * Most node objects without an IRI plus blank node identifiers (`_:…`) anywhere: RDF
   * canonicalization work grows with blank nodes and the edges between them.
   */
  maxBlankNodes: number;
}

const isIri = (id: unknown): boolean => typeof id === 'string' && !id.startsWith('_:');

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxDepth: 24, maxValues: 2_000, maxArrayLength: 128, maxBlankNodes: 128 };

const tooLarge = (detail: string) => new PolicyFailure('data_integrity.limit_exceeded', detail);

/**
 * Checks the limits and returns every context URL the document names (strings in any
 * `@context`, at any depth: embedded contexts and proof contexts too).
 */
export function measureDocument(document: unknown, limits: DocumentLimits): Set<string> {
  const contexts = new Set<string>();
  let values = 0;
  let blankNodes = 0;
  // Iterative walk: a hostile depth never reaches the call stack. `inContext`: inside an embedded
  // context definition, whose objects are term definitions, not nodes.
  const stack: { value: unknown; depth: number; inContext: boolean }[] = [{ value: document, depth: 0, inContext: false }];
  while (stack.length > 0) {
    const { value, depth, inContext } = stack.pop()!;
    if (++values > limits.maxValues) throw tooLarge(`The document has more than ${limits.maxValues} JSON values`);
    // A blank node identifier anywhere (a reference through a term coerced to @id, say) counts:
    // canonicalization cost follows the edges between blank nodes, not only their number.
    if (typeof value === 'string' && value.startsWith('_:') && ++blankNodes > limits.maxBlankNodes) throw tooLarge(`The document has more than ${limits.maxBlankNodes} blank nodes or references to them`);
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.maxDepth) throw tooLarge(`The document is nested deeper than ${limits.maxDepth} levels`);
    if (Array.isArray(value)) {
      if (value.length > limits.maxArrayLength) throw tooLarge(`The document has an array of more than ${limits.maxArrayLength} entries`);
      for (const item of value) stack.push({ value: item, depth: depth + 1, inContext });
      continue;
    }
    const object = value as Record<string, unknown>;
    if (!inContext && !('@value' in object) && !isIri(object.id ?? object['@id']) && ++blankNodes > limits.maxBlankNodes) {
      throw tooLarge(`The document has more than ${limits.maxBlankNodes} blank nodes or references to them`);
    }
    for (const [key, member] of Object.entries(object)) {
      if (key === '@context') for (const entry of Array.isArray(member) ? member : [member]) if (typeof entry === 'string') contexts.add(entry);
      stack.push({ value: member, depth: depth + 1, inContext: inContext || key === '@context' });
    }
  }
  return contexts;
}
