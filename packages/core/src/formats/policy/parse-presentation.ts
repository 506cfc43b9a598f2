import { FormatFailure } from '../format-error.js';
import type { ParseOptions } from '../format-descriptor.js';
import { formatDescriptor } from '../registry.js';
import type { ParsedPresentation } from '../../model/parsed-presentation.js';

export type { ParseOptions } from '../format-descriptor.js';

export interface PresentationLocation {
  queryId: string;
  index: number;
  format: string;
}

/** Decodes one presentation with its format's descriptor; throws FormatFailure with the presentation path. */
export function parsePresentation(value: unknown, location: PresentationLocation, options: ParseOptions = {}): ParsedPresentation {
  const ref = { ...location, path: [location.queryId, location.index] };
  const descriptor = formatDescriptor(location.format);
  if (!descriptor) throw new FormatFailure('format.unsupported_format', 'the credential format is not supported', ref.path);
  return descriptor.parse(value, ref, options);
}
