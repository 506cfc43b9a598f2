/**
 * Whether `namespace` is the doctype's own: equal to the docType (the EUDI PID), or the docType
 * without its last dot-separated label (ISO 18013-5: doctype `org.iso.18013.5.1.mDL`, namespace
 * `org.iso.18013.5.1`).
 */
export function isDoctypeNamespace(docType: string, namespace: string): boolean {
  const lastDot = docType.lastIndexOf('.');
  return namespace === docType || (lastDot > 0 && namespace === docType.slice(0, lastDot));
}

/**
 * The data elements of one document keyed by element identifier alone. On a clash the doctype's
 * own namespace wins, then the first namespace in document order; the losing values stay
 * readable under `namespaces`. Values are kept as decoded.
 */
export function topLevelClaims(docType: string, namespaces: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const entries = Object.entries(namespaces);
  const ordered = [...entries.filter(([ns]) => isDoctypeNamespace(docType, ns)), ...entries.filter(([ns]) => !isDoctypeNamespace(docType, ns))];
  const claims: Record<string, unknown> = {};
  for (const [, elements] of ordered) {
    for (const [identifier, value] of Object.entries(elements)) {
      // defineProperty: an element named `__proto__` is data, not the object's prototype.
      if (!Object.hasOwn(claims, identifier)) Object.defineProperty(claims, identifier, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return claims;
}
