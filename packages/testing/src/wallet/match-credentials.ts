import type { WalletDcqlQuery, WalletPresentationDefinition } from './received-request.js';
import type { ClaimPath, Presentation, WalletCredential } from './wallet-credential.js';

type CredentialQuery = WalletDcqlQuery['credentials'][number];

const SD_JWT_FORMATS = ['dc+sd-jwt', 'vc+sd-jwt'];

/**
 * `type_values` hold expanded IRIs (OpenID4VP 1.0 B.1.1). This wallet does not run JSON-LD: it
 * takes an IRI whose fragment or last path segment is the type as written for that type, which
 * holds for the VC base context and `@vocab` contexts its issuer uses.
 */
const namesType = (iri: string, held: string): boolean => iri === held || iri.endsWith(`#${held}`) || iri.endsWith(`/${held}`);

function matchesQuery(credential: WalletCredential, query: CredentialQuery): boolean {
  const meta = query.meta ?? {};
  if (SD_JWT_FORMATS.includes(query.format)) return credential.format === 'dc+sd-jwt' && (!meta.vct_values || meta.vct_values.includes(credential.vct));
  if (query.format === 'mso_mdoc') return credential.format === 'mso_mdoc' && (!meta.doctype_value || meta.doctype_value === credential.docType);
  if (query.format === 'jwt_vc_json') {
    return credential.format === 'jwt_vc_json' && (!meta.type_values || meta.type_values.some((set) => set.every((type) => credential.types.some((held) => namesType(type, held)))));
  }
  return false;
}

/** Claim paths a query asks for: its `claims`, narrowed to the first `claim_sets` option. */
export function requestedPaths(query: CredentialQuery): ClaimPath[] | undefined {
  if (!query.claims || query.claims.length === 0) return undefined;
  const firstSet = (query.claim_sets as string[][] | undefined)?.[0];
  const claims = firstSet ? query.claims.filter((claim) => claim.id !== undefined && firstSet.includes(claim.id)) : query.claims;
  return claims.map((claim) => claim.path);
}

/**
 * A simple wallet's answer to a DCQL query: the first stored credential per query (all of them
 * when `multiple`), disclosing the requested claim paths. With `credential_sets`, the first
 * satisfiable option of each set is used; a required set that cannot be satisfied throws.
 */
export function matchDcql(query: WalletDcqlQuery, credentials: WalletCredential[]): Record<string, Presentation[]> {
  const matches = new Map<string, Presentation[]>();
  for (const credentialQuery of query.credentials) {
    const found = credentials.filter((credential) => matchesQuery(credential, credentialQuery));
    if (found.length === 0) continue;
    const disclose = requestedPaths(credentialQuery);
    const chosen = credentialQuery.multiple ? found : found.slice(0, 1);
    matches.set(credentialQuery.id, chosen.map((credential) => (disclose ? { credential, disclose } : { credential })));
  }
  let ids: string[];
  if (query.credential_sets) {
    ids = [];
    for (const set of query.credential_sets) {
      const option = set.options.find((candidate) => candidate.every((id) => matches.has(id)));
      if (option) ids.push(...option);
      else if (set.required !== false) throw new Error(`test wallet: no stored credentials satisfy credential set ${JSON.stringify(set.options)}`);
    }
  } else {
    ids = query.credentials.map((credentialQuery) => credentialQuery.id);
    const missing = ids.filter((id) => !matches.has(id));
    if (missing.length > 0) throw new Error(`test wallet: no stored credential for ${missing.join(', ')}`);
  }
  return Object.fromEntries([...new Set(ids)].map((id) => [id, matches.get(id)!]));
}

/** PE: the first stored credential whose format one of the descriptor's formats names. */
export function matchPresentationDefinition(definition: WalletPresentationDefinition, credentials: WalletCredential[]): Record<string, Presentation[]> {
  const result: Record<string, Presentation[]> = {};
  for (const descriptor of definition.input_descriptors) {
    const formats = Object.keys(descriptor.format ?? definition.format ?? {});
    const credential = credentials.find(
      (candidate) =>
        (candidate.format === 'jwt_vc_json' && formats.some((format) => format.startsWith('jwt_v'))) ||
        (candidate.format === 'dc+sd-jwt' && formats.some((format) => SD_JWT_FORMATS.includes(format))) ||
        (candidate.format === 'mso_mdoc' && formats.includes('mso_mdoc') && candidate.docType === descriptor.id),
    );
    if (!credential) throw new Error(`test wallet: no stored credential for input descriptor ${descriptor.id}`);
    result[descriptor.id] = [{ credential }];
  }
  return result;
}
