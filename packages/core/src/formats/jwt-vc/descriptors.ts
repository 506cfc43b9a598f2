import type { FormatDescriptor } from '../format-descriptor.js';
import { extractW3c, typeValuesIssues } from '../shared/w3c-claims.js';
import { parseJwtVcOrVp } from './parse-jwt-vc.js';

interface JwtFormatOptions {
  id: string;
  /** The VP formats of Presentation Exchange: a bare credential is refused. */
  requireVp: boolean;
  /** Appendix B defines `alg_values` for it. */
  algValues: boolean;
  offeredToPresentationExchange: boolean;
  /** DCQL `meta.type_values` applies (the 1.0 identifier). */
  typeValues: boolean;
}

/**
 * JWT-secured W3C credentials: a JWT VP (holder binding) or, where a VC is asked for, a plain JWT
 * VC (OpenID4VP B.1 allows one when binding is not required). VCDM 1.1 and 2.0.
 */
function jwtFormat(options: JwtFormatOptions): FormatDescriptor<'w3c'> {
  const descriptor: FormatDescriptor<'w3c'> = {
    id: options.id,
    aliases: [],
    family: 'w3c',
    kinds: options.requireVp ? ['jwt-vp'] : ['jwt-vc', 'jwt-vp'],
    haip: false,
    offeredToPresentationExchange: options.offeredToPresentationExchange,
    parse: (value, ref) => parseJwtVcOrVp(value, ref, options.requireVp ? { requireVp: true } : {}),
    extract: extractW3c,
  };
  if (options.algValues) descriptor.vpFormatParameters = (algs) => ({ alg_values: [...algs.jose] });
  if (options.typeValues) descriptor.dcqlMetaIssues = typeValuesIssues;
  return descriptor;
}

/** `jwt_vc_json` (OpenID4VP 1.0 appendix B.1), the W3C format of DCQL queries. */
export const jwtVcJson = jwtFormat({ id: 'jwt_vc_json', requireVp: false, algValues: true, offeredToPresentationExchange: true, typeValues: true });
/** Presentation Exchange names (drafts ≤ 25 and the DIF claim format registry). */
export const jwtVc = jwtFormat({ id: 'jwt_vc', requireVp: false, algValues: true, offeredToPresentationExchange: false, typeValues: false });
export const jwtVcJsonLd = jwtFormat({ id: 'jwt_vc_json-ld', requireVp: false, algValues: false, offeredToPresentationExchange: false, typeValues: false });
export const jwtVpJson = jwtFormat({ id: 'jwt_vp_json', requireVp: true, algValues: true, offeredToPresentationExchange: true, typeValues: false });
export const jwtVp = jwtFormat({ id: 'jwt_vp', requireVp: true, algValues: true, offeredToPresentationExchange: true, typeValues: false });
