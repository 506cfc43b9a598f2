/** Deepest nesting accepted in any JSON value from a client (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` nests no deeper than `max`. Iterative, so a hostile value cannot overflow
 * the stack here; JSON.parse accepts far deeper input than structuredClone or JSON.stringify can
 * handle later, so every JSON that enters from outside is checked once, at the door.
 */
export function withinJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return true;
}
