/** Deepest nesting accepted in any JSON value from a client (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` nests no deeper than `max`. Iterative, so a hostile value cannot overflow
 * the stack here; JSON.parse accepts far deeper input than structuredClone or JSON.stringify can
 * handle later, so every JSON that enters from outside is checked once, at the door.
 */
export function withinJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  // Two parallel stacks and for…in: no tuple or Object.values array per node, which made a
  // 100,000-member body cost ~85 ms here.
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const current = nodes.pop();
    const depth = depths.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return false;
    if (Array.isArray(current)) {
      for (const child of current) {
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in current) {
        const child = (current as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}

/**
 * True when JSON text nests no deeper than `max` (the same verdict as {@link withinJsonDepth} on
 * what JSON.parse makes of it; text that is not JSON may get either answer). One pass over the
 * text that stops at the first bracket too deep: JSON.parse itself takes tens of milliseconds on
 * a few hundred kilobytes nested hundreds of thousands deep, so deep text is refused unparsed.
 */
export function jsonTextWithinDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string: brackets inside it do not nest.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return false;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return true;
}

/** Longest pointer {@link tooDeepPointer} answers: past it, the pointer names an ancestor. */
const MAX_POINTER_LENGTH = 512;

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

/**
 * The RFC 6901 pointer of the first object or array at nesting level `max` (the node
 * {@link withinJsonDepth} stops at), or undefined when there is none. Iterative like it, and
 * meant for after it said no: it keeps a frame per node to spell the path. A pointer longer than
 * 512 characters (member names are the caller's) is cut back to the deepest ancestor that fits.
 */
export function tooDeepPointer(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (current === null || typeof current !== 'object') continue;
    if (frame.depth >= max) return pointerOf(frame);
    // Pushed in reverse, so nodes are visited in document order.
    const keys = Array.isArray(current) ? current.map((_, i) => String(i)) : Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (current as Record<string, unknown>)[keys[i]!];
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: keys[i]! });
    }
  }
  return undefined;
}

function pointerOf(frame: Frame): string {
  const segments: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) segments.push(f.key);
  let pointer = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const next = `${pointer}/${segments[i]!.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (next.length > MAX_POINTER_LENGTH) break;
    pointer = next;
  }
  return pointer;
}
