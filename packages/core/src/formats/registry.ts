import type { AnyFormatDescriptor, FamilyPresentation, FormatDescriptor, FormatFamily } from './format-descriptor.js';
import { jwtVc, jwtVcJson, jwtVcJsonLd, jwtVp, jwtVpJson } from './jwt-vc/descriptors.js';
import { ldp, ldpVc, ldpVp } from './ldp/descriptors.js';
import { msoMdoc } from './mso-mdoc/descriptor.js';
import { sdJwtVc } from './sd-jwt-vc/descriptor.js';
import type { ExtractedCredential } from '../model/extracted-credential.js';
import type { ParsedPresentation } from '../model/parsed-presentation.js';

/**
 * Every credential format the authorizer decodes. Adding a format = a folder with its descriptor,
 * listed here. The order is the order of `vp_formats_supported` in discovery metadata.
 */
export const FORMATS: readonly AnyFormatDescriptor[] = Object.freeze([sdJwtVc, msoMdoc, jwtVcJson, jwtVpJson, jwtVc, jwtVp, jwtVcJsonLd, ldpVc, ldpVp, ldp]);

/** The identifier and the aliases of a format. */
export const formatNames = (descriptor: AnyFormatDescriptor): string[] => [descriptor.id, ...descriptor.aliases];

// A Map, not an object: a format name from the wallet ("__proto__", "constructor") finds nothing.
const BY_NAME = new Map<string, AnyFormatDescriptor>();
for (const descriptor of FORMATS) {
  for (const name of formatNames(descriptor)) {
    // Two formats claiming one name would make dispatch depend on registration order.
    if (BY_NAME.has(name)) throw new Error(`format name ${name} is registered twice`);
    BY_NAME.set(name, descriptor);
  }
}

/** The descriptor for a format identifier or alias; undefined for anything unknown. */
export function formatDescriptor(format: unknown): AnyFormatDescriptor | undefined {
  return typeof format === 'string' ? BY_NAME.get(format) : undefined;
}

export const isSupportedFormat = (format: unknown): format is string => formatDescriptor(format) !== undefined;

/** The same format under either name (`vc+sd-jwt` and `dc+sd-jwt`); an unknown name only equals itself. */
export function sameFormat(a: string, b: string): boolean {
  if (a === b) return true;
  const descriptor = formatDescriptor(a);
  return descriptor !== undefined && descriptor === formatDescriptor(b);
}

/** The family of a format identifier or alias. */
export const formatFamily = (format: string): FormatFamily | undefined => formatDescriptor(format)?.family;

/**
 * The descriptor a parsed presentation belongs to: its `format` is registered and its `kind` is one
 * that format yields. Undefined for anything else (a presentation built by hand, or inconsistent).
 */
export function presentationFormat(presentation: ParsedPresentation): AnyFormatDescriptor | undefined {
  const descriptor = formatDescriptor(presentation.format);
  return descriptor && (descriptor.kinds as readonly string[]).includes(presentation.kind) ? descriptor : undefined;
}

/** One handler per family, each receiving that family's presentations and the format's descriptor. */
export type FamilyHandlers<R> = { [F in FormatFamily]: (presentation: FamilyPresentation[F], descriptor: FormatDescriptor<F>) => R };

/**
 * Calls the handler of the presentation's family, or `unsupported` when the presentation is in no
 * registered format. The one place that narrows a presentation by its format.
 */
export function dispatchByFamily<R>(presentation: ParsedPresentation, handlers: FamilyHandlers<R>, unsupported: (presentation: ParsedPresentation) => R): R {
  const descriptor = presentationFormat(presentation);
  if (!descriptor) return unsupported(presentation);
  // presentationFormat checked that the kind is one of the descriptor's kinds, which are typed
  // as its family's kinds: the presentation is FamilyPresentation[descriptor.family].
  const handler = handlers[descriptor.family] as (presentation: ParsedPresentation, descriptor: AnyFormatDescriptor) => R;
  return handler(presentation, descriptor);
}

/** What the relying party reads from `/credentials` for one presentation; none for an unregistered one. */
export function extractCredentials(presentation: ParsedPresentation): ExtractedCredential[] {
  return dispatchByFamily<ExtractedCredential[]>(
    presentation,
    { 'sd-jwt': (p, d) => d.extract(p), mdoc: (p, d) => d.extract(p), w3c: (p, d) => d.extract(p) },
    () => [],
  );
}

/** HAIP 1.0 allows these identifiers (aliases excluded). */
export const haipFormatIds = (): string[] => FORMATS.filter((d) => d.haip).map((d) => d.id);

export const allowedUnderHaip = (format: string): boolean => formatDescriptor(format)?.haip === true && formatDescriptor(format)?.id === format;
