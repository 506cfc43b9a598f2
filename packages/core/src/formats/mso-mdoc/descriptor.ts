import type { FormatDescriptor } from '../format-descriptor.js';
import { sharesAlgorithm } from '../shared/algorithm-lists.js';
import { parseMdoc } from './parse-mdoc.js';
import { topLevelClaims } from './top-level-claims.js';

/** ISO 18013-5 mdoc (OpenID4VP 1.0 appendix B.2): a DeviceResponse, one credential per document. */
export const msoMdoc: FormatDescriptor<'mdoc'> = {
  id: 'mso_mdoc',
  aliases: [],
  family: 'mdoc',
  kinds: ['mdoc'],
  haip: true,
  offeredToPresentationExchange: false,
  parse: (value, ref, options) => parseMdoc(value, ref, options),
  // One entry per document at `[queryId, index, docIndex]`: elements flat under `claims` (as
  // clients of the hosted API read them), and by namespace under `namespaces`.
  extract: (presentation) =>
    presentation.documents.map((document, docIndex) => {
      const namespaces = Object.fromEntries(
        Object.entries(document.nameSpaces).map(([namespace, items]) => [namespace, Object.fromEntries(items.map((item) => [item.elementIdentifier, item.elementValue]))]),
      );
      return { path: [...presentation.path, docIndex], format: presentation.format, credentialType: document.docType, claims: topLevelClaims(document.docType, namespaces), namespaces };
    }),
  vpFormatParameters: (algs) => ({ issuerauth_alg_values: [...algs.cose], deviceauth_alg_values: [...algs.cose] }),
  dcqlMetaIssues: (meta) =>
    typeof meta.doctype_value === 'string' && meta.doctype_value.length > 0
      ? []
      : [{ path: ['meta', 'doctype_value'], detail: 'an mso_mdoc credential query needs meta.doctype_value: a non-empty string' }],
  dcqlClaimPathIssue: (path) =>
    path.length === 2 && path.every((p) => typeof p === 'string') ? undefined : 'an mso_mdoc claim path is exactly [namespace, element identifier]',
  walletMetadataIssue: (entry, algs, format) =>
    sharesAlgorithm(entry, 'issuerauth_alg_values', algs.cose) && sharesAlgorithm(entry, 'deviceauth_alg_values', algs.cose)
      ? undefined
      : `the wallet's ${format} algorithms do not include any of the COSE algorithms ${algs.cose.join(', ')}`,
};
