import { PolicyFailure } from '../verifier/policy-failure.js';

/**
 * Bounds on a Data Integrity document, checked before any JSON-LD processing: expansion and
 * canonicalization cost grows with the number of values and blank nodes, and context processing
 * with the contexts a document defines itself, so the whole presentation is measured once, up
 * front. Values chosen so the worst document within them keeps the event loop stall within budget
 * (bench/hostile-stalls.mjs measures it).
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
  /**
   * Most context definitions the document brings itself: embedded context objects at any depth
   * (scoped contexts of term definitions included), scoped contexts naming a URL, and `@import`s.
   * JSON-LD copies the whole active context to process each one, whether or not its term is used.
   */
  maxEmbeddedContexts: number;
  /**
   * Most term definitions in those embedded contexts: every later context processed, and every node
   * entered below a type-scoped context, copies the active context they enlarge.
   */
  maxTermDefinitions: number;
}

/** What measuring a document found: every context URL it names, and what it defines itself. */
export interface DocumentMeasure {
  /** Strings in any `@context` (embedded, scoped and proof contexts too) and `@import`s. */
  contexts: Set<string>;
  embeddedContexts: number;
  termDefinitions: number;
}

const isIri = (id: unknown): boolean => typeof id === 'string' && !id.startsWith('_:');

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxDepth: 24, maxValues: 2_000, maxArrayLength: 128, maxBlankNodes: 128, maxEmbeddedContexts: 32, maxTermDefinitions: 256 };

const tooLarge = (detail: string) => new PolicyFailure('data_integrity.limit_exceeded', detail);

/**
 * Checks the limits and returns what the document names and defines. The one measure of JSON-LD
 * work: the verifier refuses by it, the validator's type expansion charges its budget by it too.
 */
export function measureDocument(document: unknown, limits: DocumentLimits): DocumentMeasure {
  const contexts = new Set<string>();
  let values = 0;
  let blankNodes = 0;
  let embeddedContexts = 0;
  let termDefinitions = 0;
  const defined = (count: number) => {
    if ((embeddedContexts += 1) > limits.maxEmbeddedContexts) throw tooLarge(`The document defines more than ${limits.maxEmbeddedContexts} contexts itself (embedded, scoped or imported)`);
    if ((termDefinitions += count) > limits.maxTermDefinitions) throw tooLarge(`The document's own contexts define more than ${limits.maxTermDefinitions} terms`);
  };
  /** One `@context` member: URLs to check, objects (and, inside a context, URLs: scoped contexts) defined here. */
  const contextMember = (member: unknown, inContext: boolean) => {
    for (const entry of Array.isArray(member) ? member : [member]) {
      if (typeof entry === 'string') {
        contexts.add(entry);
        if (inContext) defined(0);
      } else if (typeof entry === 'object' && entry !== null) {
        defined(Object.keys(entry).filter((key) => !key.startsWith('@')).length);
      }
    }
  };
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
      if (key === '@context') contextMember(member, inContext);
      else if (key === '@import' && inContext && typeof member === 'string') {
        contexts.add(member);
        defined(0);
      }
      stack.push({ value: member, depth: depth + 1, inContext: inContext || key === '@context' });
    }
  }
  return { contexts, embeddedContexts, termDefinitions };
}
