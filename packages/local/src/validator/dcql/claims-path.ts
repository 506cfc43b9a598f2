/** A DCQL claims path pointer (OpenID4VP 1.0 §7). */
export type ClaimsPath = readonly (string | number | null)[];

export type PathSelection = { ok: true; selected: unknown[] } | { ok: false; reason: 'type_error' | 'empty' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Processes a claims path pointer over JSON data (OpenID4VP 1.0 §7.1.1): a string selects that key
 * of every selected object, null selects every element of every selected array, an integer the
 * element at that index. A string applied to a non-object, or null / an integer applied to a
 * non-array, is an error; an empty selection at any step is an error.
 *
 * `anyIndex` (SD-JWT): an integer matches ANY element, because undisclosed array elements are
 * removed and shift the indices of the disclosed ones (DCQL-TS presentation mode).
 *
 * JSON null leaves are dropped from the final selection: a null claim discloses nothing
 * (DCQL-TS also treats it as absent). Each step charges `spend` for what it selected.
 */
export function selectClaims(root: unknown, path: ClaimsPath, options: { anyIndex: boolean; spend?: (units: number) => void }): PathSelection {
  let selection: unknown[] = [root];
  for (const component of path) {
    const next: unknown[] = [];
    for (const element of selection) {
      if (typeof component === 'string') {
        if (!isObject(element)) return { ok: false, reason: 'type_error' };
        if (Object.hasOwn(element, component)) next.push(element[component]);
      } else {
        if (!Array.isArray(element)) return { ok: false, reason: 'type_error' };
        if (component === null || options.anyIndex) for (const item of element) next.push(item); // no spread: a 200k-element array would overflow the stack
        else if (component < element.length) next.push(element[component]);
      }
    }
    // One unit per value selected (and one for the step): the caller's budget for the response.
    options.spend?.(next.length + 1);
    selection = next;
    if (selection.length === 0) return { ok: false, reason: 'empty' };
  }
  selection = selection.filter((value) => value !== null && value !== undefined);
  return selection.length === 0 ? { ok: false, reason: 'empty' } : { ok: true, selected: selection };
}

/** mdoc paths are exactly `[namespace, elementIdentifier]` (OpenID4VP 1.0 §7.2). */
export function selectMdocClaim(namespaces: unknown, path: ClaimsPath): PathSelection {
  const [namespace, element] = path;
  if (path.length !== 2 || typeof namespace !== 'string' || typeof element !== 'string') return { ok: false, reason: 'type_error' };
  const ns = isObject(namespaces) && Object.hasOwn(namespaces, namespace) ? namespaces[namespace] : undefined;
  if (!isObject(ns) || !Object.hasOwn(ns, element)) return { ok: false, reason: 'empty' };
  const value = ns[element];
  return value === null || value === undefined ? { ok: false, reason: 'empty' } : { ok: true, selected: [value] };
}

/** `values` (§6.3): type and value must both equal one of the listed values; no coercion. */
export function matchesValues(selected: unknown[], values: readonly (string | number | boolean)[]): boolean {
  return selected.some((value) => values.some((allowed) => value === allowed));
}
