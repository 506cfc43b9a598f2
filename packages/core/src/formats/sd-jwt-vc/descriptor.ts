import type { FormatDescriptor } from '../format-descriptor.js';
import { sharesAlgorithm } from '../shared/algorithm-lists.js';
import { parseSdJwt } from './parse-sd-jwt.js';

/** Members that describe the credential mechanics rather than the subject; not handed to the RP as claims. */
const HIDDEN_CLAIMS = new Set(['cnf', '_sd', '_sd_alg']);

/** `typ` values of an SD-JWT VC issuer JWT (SD-JWT VC section 3.2.1; `vc+sd-jwt` before draft 06). */
export const SD_JWT_VC_TYPES: readonly string[] = Object.freeze(['dc+sd-jwt', 'vc+sd-jwt']);

const isNonEmptyStringList = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string' && x.length > 0);

/** SD-JWT VC (OpenID4VP 1.0 appendix B.3); `vc+sd-jwt` is its pre-1.0 name. */
export const sdJwtVc: FormatDescriptor<'sd-jwt'> = {
  id: 'dc+sd-jwt',
  aliases: ['vc+sd-jwt'],
  family: 'sd-jwt',
  kinds: ['sd-jwt'],
  haip: true,
  offeredToPresentationExchange: false,
  parse: (value, ref) => parseSdJwt(value, ref),
  // Disclosed claims without `cnf`/`_sd*`; the type is `vct` (empty string when absent).
  extract: (presentation) => {
    const claims = Object.fromEntries(Object.entries(presentation.claims).filter(([k]) => !HIDDEN_CLAIMS.has(k)));
    return [{ path: presentation.path, format: presentation.format, credentialType: presentation.vct ?? '', claims }];
  },
  vpFormatParameters: (algs) => ({ 'sd-jwt_alg_values': [...algs.jose], 'kb-jwt_alg_values': [...algs.jose] }),
  // Pre-1.0 wallets read the same parameter names for SD-JWT.
  legacyVpFormatParameters: (algs) => ({ 'sd-jwt_alg_values': [...algs.jose], 'kb-jwt_alg_values': [...algs.jose] }),
  dcqlMetaIssues: (meta, format) =>
    isNonEmptyStringList(meta.vct_values) ? [] : [{ path: ['meta', 'vct_values'], detail: `a ${format} credential query needs meta.vct_values: a non-empty array of strings` }],
  walletMetadataIssue: (entry, algs, format) =>
    sharesAlgorithm(entry, 'sd-jwt_alg_values', algs.jose) && sharesAlgorithm(entry, 'kb-jwt_alg_values', algs.jose)
      ? undefined
      : `the wallet's ${format} algorithms do not include any of ${algs.jose.join(', ')}`,
};
