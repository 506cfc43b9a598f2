import { ConfigError } from '@vp-authorizer/core';
import { BUNDLED_CONTEXTS } from './bundled-contexts.js';

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
};

const isContextDocument = (d: unknown): boolean => typeof d === 'object' && d !== null && !Array.isArray(d) && '@context' in d;

/**
 * The bundled JSON-LD contexts plus the operator's (copied and frozen), by URL: the only contexts
 * the Data Integrity verifier and the type expansion of the validator ever load. A bundled URL
 * cannot be replaced. `owner` and `path` name the option in the ConfigError.
 */
export function configuredContexts(contexts: Record<string, Record<string, unknown>> | undefined, where: { owner: string; path: string }): ReadonlyMap<string, unknown> {
  if (contexts === undefined || Object.keys(contexts).length === 0) return BUNDLED_CONTEXTS;
  const map = new Map(BUNDLED_CONTEXTS);
  const refuse = (url: string, message: string) => new ConfigError(`Invalid ${where.owner} options`, [{ path: `${where.path}.${url}`, message }]);
  for (const [url, document] of Object.entries(contexts)) {
    if (BUNDLED_CONTEXTS.has(url)) throw refuse(url, `this context is bundled and cannot be replaced; remove it from ${where.path}`);
    if (!URL.canParse(url)) throw refuse(url, 'a context URL must be an absolute URL');
    if (!isContextDocument(document)) throw refuse(url, 'a context must be a JSON-LD context document: an object with an @context member');
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(document));
    } catch {
      throw refuse(url, 'a context document must be JSON');
    }
    map.set(url, deepFreeze(copy));
  }
  return map;
}
