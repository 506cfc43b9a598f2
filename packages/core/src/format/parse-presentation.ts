import type { CborBudget } from './cbor-budget.js';
import { isJsonObject } from './decode-jwt.js';
import { FormatFailure } from './format-error.js';
import { parseJwtVcOrVp } from './parse-jwt-vc.js';
import { parseMdoc } from './parse-mdoc.js';
import { parseSdJwt } from './parse-sd-jwt.js';
import type { ParsedPresentation } from './parsed-presentation.js';

type Decoder = 'sd-jwt' | 'mdoc' | 'jwt-vc-or-vp' | 'jwt-vp' | 'ldp';

/** Credential format identifier (DCQL `format`, PE descriptor `format`) → how its presentations are encoded. */
const DECODERS: Record<string, Decoder> = {
  'dc+sd-jwt': 'sd-jwt',
  'vc+sd-jwt': 'sd-jwt',
  mso_mdoc: 'mdoc',
  jwt_vc_json: 'jwt-vc-or-vp',
  'jwt_vc_json-ld': 'jwt-vc-or-vp',
  jwt_vc: 'jwt-vc-or-vp',
  jwt_vp_json: 'jwt-vp',
  jwt_vp: 'jwt-vp',
  ldp_vc: 'ldp',
  ldp_vp: 'ldp',
  ldp: 'ldp',
};

export const isSupportedFormat = (format: unknown): format is string => typeof format === 'string' && Object.hasOwn(DECODERS, format);

export interface PresentationLocation {
  queryId: string;
  index: number;
  format: string;
}

export interface ParseOptions {
  profile?: 'haip';
  /** The response-wide CBOR budget (mdoc); one per wallet response, shared by all presentations. */
  budget?: CborBudget;
}

/** Decodes one presentation by its format; throws FormatFailure with the presentation path. */
export function parsePresentation(value: unknown, location: PresentationLocation, options: ParseOptions = {}): ParsedPresentation {
  const ref = { ...location, path: [location.queryId, location.index] };
  if (!isSupportedFormat(location.format)) throw new FormatFailure('format.unsupported_format', 'the credential format is not supported', ref.path);
  switch (DECODERS[location.format]) {
    case 'sd-jwt':
      return parseSdJwt(value, ref);
    case 'mdoc':
      return parseMdoc(value, ref, options);
    case 'jwt-vc-or-vp':
      return parseJwtVcOrVp(value, ref);
    case 'jwt-vp':
      return parseJwtVcOrVp(value, ref, { requireVp: true });
    default:
      if (!isJsonObject(value)) throw new FormatFailure('format.ldp_malformed', 'an ldp presentation must be a JSON object', ref.path);
      return { ...ref, kind: 'ldp', raw: value };
  }
}
