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
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxDepth: 24, maxValues: 4_000 };

const tooLarge = (detail: string) => new PolicyFailure('data_integrity.limit_exceeded', detail);

/**
 * Checks the limits and returns every context URL the document names (strings in any
 * `@context`, at any depth: embedded contexts and proof contexts too).
 */
export function measureDocument(document: unknown, limits: DocumentLimits): Set<string> {
  const contexts = new Set<string>();
  let values = 0;
  // Iterative walk: a hostile depth never reaches the call stack.
  const stack: { value: unknown; depth: number }[] = [{ value: document, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (++values > limits.maxValues) throw tooLarge(`The document has more than ${limits.maxValues} JSON values`);
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.maxDepth) throw tooLarge(`The document is nested deeper than ${limits.maxDepth} levels`);
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, member] of Object.entries(value)) {
      if (key === '@context') for (const entry of Array.isArray(member) ? member : [member]) if (typeof entry === 'string') contexts.add(entry);
      stack.push({ value: member, depth: depth + 1 });
    }
  }
  return contexts;
}
