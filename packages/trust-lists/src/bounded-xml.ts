import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { TrustListError } from './trust-list-error.js';

/** Bounds on one XML trusted list: every amount of parsing work is limited before or while it happens. */
export interface XmlBounds {
  /** Largest accepted document, in bytes. */
  maxBytes: number;
  /** Deepest accepted element nesting. */
  maxDepth: number;
  /** Most accepted nodes (elements, attributes and text). */
  maxNodes: number;
  /** Longest accepted attribute value, in characters. */
  maxAttributeLength: number;
}

export const DEFAULT_XML_BOUNDS: XmlBounds = {
  // Today's largest national lists are a few MB; the LoTL is about 470 kB.
  maxBytes: 16 * 1024 * 1024,
  maxDepth: 48,
  maxNodes: 2_000_000,
  maxAttributeLength: 8 * 1024,
};

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Bytes → text, refusing what a trusted list never contains before any parser sees it: a DOCTYPE
 * (so no entity declaration, internal or external, can be expanded), processing instructions other
 * than the XML declaration, and any encoding but UTF-8 (TS 119 612 clause 5.1 requires UTF-8).
 */
export function boundedXmlText(bytes: Uint8Array, bounds: XmlBounds, where: string): string {
  if (bytes.byteLength > bounds.maxBytes) throw new TrustListError('too_large', `${where}: the document is larger than ${bounds.maxBytes} bytes`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new TrustListError('malformed', `${where}: the document is not UTF-8`);
  }
  if (text.includes('<!DOCTYPE') || text.includes('<!ENTITY')) throw new TrustListError('xml_refused', `${where}: DOCTYPE and entity declarations are refused`);
  const declaration = /^<\?xml[^?]*\?>/.exec(text);
  const declared = declaration ? /encoding\s*=\s*["']([^"']+)["']/.exec(declaration[0])?.[1] : undefined;
  if (declared !== undefined && declared.toLowerCase() !== 'utf-8') throw new TrustListError('malformed', `${where}: the document declares encoding ${declared}, not UTF-8`);
  if (text.indexOf('<?', declaration ? declaration[0].length : 0) !== -1) throw new TrustListError('xml_refused', `${where}: processing instructions are refused`);
  if (nestingDepth(text, bounds.maxDepth) > bounds.maxDepth) throw new TrustListError('xml_refused', `${where}: elements nested deeper than ${bounds.maxDepth}`);
  return text;
}

/**
 * The element nesting depth, counted in one linear pass and given up past `limit`, before the
 * parser runs: xmldom recurses per level and would exhaust the stack on a deep enough document.
 * Only counts tags; comments and CDATA are skipped, quoted attribute values may hold `>`. A
 * miscount can only make the parse below refuse, never accept, what this pass let through.
 */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let at = text.indexOf('<');
  while (at !== -1) {
    if (text.startsWith('<!--', at)) at = endOf(text, '-->', at);
    else if (text.startsWith('<![CDATA[', at)) at = endOf(text, ']]>', at);
    else if (text[at + 1] === '/') {
      depth--;
      at = text.indexOf('>', at);
    } else {
      let quote: string | undefined;
      let i = at + 1;
      for (; i < text.length; i++) {
        const c = text[i];
        if (quote) {
          if (c === quote) quote = undefined;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (text[i - 1] !== '/' && ++depth > limit) return depth;
      at = i;
    }
    at = at === -1 ? -1 : text.indexOf('<', at + 1);
  }
  return depth;
}

const endOf = (text: string, terminator: string, from: number): number => {
  const end = text.indexOf(terminator, from);
  return end === -1 ? -1 : end + terminator.length - 1;
};

/**
 * Parses bounded text with xmldom (strict: any error or warning refuses), then walks it once to
 * enforce depth, node count and attribute length.
 */
export function parseBoundedXml(text: string, bounds: XmlBounds, where: string): Document {
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(text, 'text/xml');
  } catch {
    throw new TrustListError('malformed', `${where}: the document is not well-formed XML`);
  }
  const root = doc.documentElement;
  if (!root) throw new TrustListError('malformed', `${where}: the document has no root element`);
  checkStructure(root, bounds, where);
  return doc;
}

function checkStructure(root: Element, bounds: XmlBounds, where: string): void {
  let nodes = 0;
  // Iterative: a deep document must not exhaust the stack of the checker itself.
  const stack: [Node, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (++nodes > bounds.maxNodes) throw new TrustListError('xml_refused', `${where}: more than ${bounds.maxNodes} nodes`);
    if (depth > bounds.maxDepth) throw new TrustListError('xml_refused', `${where}: elements nested deeper than ${bounds.maxDepth}`);
    if (node.nodeType === 1) {
      const attributes = (node as Element).attributes;
      for (let i = 0; i < attributes.length; i++) {
        nodes++;
        if (attributes[i]!.value.length > bounds.maxAttributeLength) throw new TrustListError('xml_refused', `${where}: an attribute value is longer than ${bounds.maxAttributeLength} characters`);
      }
    }
    for (let child = node.firstChild; child; child = child.nextSibling) stack.push([child, depth + 1]);
  }
}

/** Child elements of `parent` with this namespace and local name. */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && (child as Element).namespaceURI === namespace && (child as Element).localName === localName) out.push(child as Element);
  }
  return out;
}

export function childElement(parent: Element, namespace: string, localName: string): Element | undefined {
  return childElements(parent, namespace, localName)[0];
}

/** The trimmed text content of an element. */
export const textOf = (element: Element | undefined): string | undefined => (element ? (element.textContent ?? '').trim() : undefined);

/** Descends a path of child elements in one namespace. */
export function path(parent: Element | undefined, namespace: string, ...names: string[]): Element | undefined {
  let at = parent;
  for (const name of names) {
    if (!at) return undefined;
    at = childElement(at, namespace, name);
  }
  return at;
}
