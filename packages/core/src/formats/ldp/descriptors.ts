import { FormatFailure } from '../format-error.js';
import type { FormatDescriptor } from '../format-descriptor.js';
import { isJsonObject } from '../shared/decode-jwt.js';
import { extractW3c, typeValuesIssues } from '../shared/w3c-claims.js';

/**
 * W3C Data Integrity credentials and presentations: a JSON object, kept as received. Decoded for
 * the validator and `/credentials`; proofs are a verifier's business.
 */
function ldpFormat(id: string, options: { typeValues: boolean }): FormatDescriptor<'w3c'> {
  const descriptor: FormatDescriptor<'w3c'> = {
    id,
    aliases: [],
    family: 'w3c',
    kinds: ['ldp'],
    haip: false,
    offeredToPresentationExchange: false,
    parse: (value, ref) => {
      if (!isJsonObject(value)) throw new FormatFailure('format.ldp_malformed', 'an ldp presentation must be a JSON object', ref.path);
      return { ...ref, kind: 'ldp', raw: value };
    },
    extract: extractW3c,
  };
  if (options.typeValues) descriptor.dcqlMetaIssues = typeValuesIssues;
  return descriptor;
}

/** `ldp_vc` (OpenID4VP 1.0 appendix B.1), the Data Integrity format of DCQL queries. */
export const ldpVc = ldpFormat('ldp_vc', { typeValues: true });
/** Presentation Exchange names. */
export const ldpVp = ldpFormat('ldp_vp', { typeValues: false });
export const ldp = ldpFormat('ldp', { typeValues: false });
