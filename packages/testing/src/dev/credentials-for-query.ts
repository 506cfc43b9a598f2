import type { ReceivedRequest, WalletDcqlQuery } from '../wallet/received-request.js';
import type { TestIssuer } from '../wallet/test-issuer.js';
import type { TestWallet } from '../wallet/test-wallet.js';

/** Values of well-known claim names (PID, mDL); any other claim gets `"<name> (test value)"`. */
const SAMPLE_VALUES: Record<string, unknown> = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1984-01-26',
  birth_date: '1984-01-26',
  age_over_18: true,
  age_over_21: true,
  nationalities: ['DE'],
  nationality: 'DE',
  issuing_country: 'DE',
  issuing_authority: 'DE',
  document_number: 'T22000129',
  email: 'erika.mustermann@example.org',
};

const DEFAULT_VCT = 'urn:eudi:pid:1';
const DEFAULT_DOCTYPE = 'org.iso.18013.5.1.mDL';

type CredentialQuery = WalletDcqlQuery['credentials'][number];

/** One credential the wallet made for a credential query, as the command reports it. */
export interface MintedCredential {
  queryId: string;
  format: string;
  /** vct, docType or the credential types. */
  type: string;
  claims: string[];
}

/**
 * Issues into `wallet`, from `issuer`, one credential per credential query of the request, shaped
 * to it: the asked type (`vct_values`, `doctype_value`, `type_values`), every asked claim with its
 * first allowed `values` entry or a sample value. So the wallet answers any DCQL request the
 * formats it knows can answer; the verifier still checks signatures, key binding and trust.
 */
export async function issueCredentialsFor(request: ReceivedRequest, issuer: TestIssuer, wallet: TestWallet): Promise<MintedCredential[]> {
  if (!request.dcqlQuery) throw new Error('this wallet answers DCQL requests only (the request has a presentation_definition)');
  const minted: MintedCredential[] = [];
  for (const query of request.dcqlQuery.credentials) minted.push(await issueFor(query, issuer, wallet));
  return minted;
}

async function issueFor(query: CredentialQuery, issuer: TestIssuer, wallet: TestWallet): Promise<MintedCredential> {
  const paths = (query.claims ?? []).map((claim) => ({ path: claim.path, value: claim.values?.[0] }));
  const described = (type: string) => ({ queryId: query.id, format: query.format, type, claims: paths.map((p) => p.path.map((s) => (s === null ? '*' : String(s))).join('.')) });
  switch (query.format) {
    case 'dc+sd-jwt':
    case 'vc+sd-jwt': {
      const vct = query.meta?.vct_values?.[0] ?? DEFAULT_VCT;
      const claims: Record<string, unknown> = {};
      for (const { path, value } of paths) setAt(claims, path, value);
      if (Object.keys(claims).length === 0) Object.assign(claims, { given_name: SAMPLE_VALUES.given_name, family_name: SAMPLE_VALUES.family_name });
      await wallet.addSdJwtVc(issuer, { vct, claims, holderBinding: query.require_cryptographic_holder_binding !== false });
      return described(vct);
    }
    case 'mso_mdoc': {
      const docType = query.meta?.doctype_value ?? DEFAULT_DOCTYPE;
      const namespaces: Record<string, Record<string, unknown>> = {};
      for (const { path, value } of paths) {
        const [namespace, element] = path;
        if (typeof namespace !== 'string' || typeof element !== 'string') throw new Error(`credential query ${query.id}: an mdoc claim path is [namespace, element], got ${JSON.stringify(path)}`);
        (namespaces[namespace] ??= {})[element] = value ?? sample(element);
      }
      if (Object.keys(namespaces).length === 0) namespaces[docType] = { given_name: SAMPLE_VALUES.given_name };
      await wallet.addMdoc(issuer, { docType, namespaces });
      return described(docType);
    }
    case 'jwt_vc_json': {
      // type_values hold expanded IRIs: the type is the IRI's fragment or last path segment.
      const types = (query.meta?.type_values?.[0] ?? ['https://www.w3.org/2018/credentials#VerifiableCredential']).map((iri) => iri.split(/[#/]/).at(-1)!).filter((t) => t !== 'VerifiableCredential');
      const claims: Record<string, unknown> = {};
      for (const { path, value } of paths) setAt(claims, path[0] === 'credentialSubject' ? path.slice(1) : path, value);
      await wallet.addJwtVc(issuer, { dataModel: '1.1', claims, types: types.length > 0 ? types : ['TestCredential'] });
      return described(['VerifiableCredential', ...types].join(', '));
    }
    default:
      throw new Error(`credential query ${query.id}: this wallet issues dc+sd-jwt, mso_mdoc and jwt_vc_json credentials, not ${query.format}`);
  }
}

/** Sets `value` (or a sample) at a DCQL claim path; a `null` segment (every element) or an index makes an array. */
function setAt(target: Record<string, unknown>, path: (string | number | null)[], value: unknown): void {
  const everyElement = path.at(-1) === null;
  const keys = everyElement ? path.slice(0, -1) : path;
  if (keys.length === 0) return;
  const name = [...keys].reverse().find((s): s is string => typeof s === 'string') ?? 'claim';
  let leaf = value ?? sample(name);
  if (everyElement && !Array.isArray(leaf)) leaf = [leaf];
  let node = target as Record<string | number, unknown>;
  keys.forEach((segment, i) => {
    const key = segment ?? 0;
    if (i === keys.length - 1) node[key] = leaf;
    else {
      const next = keys[i + 1];
      node[key] ??= next === null || typeof next === 'number' ? [] : {};
      node = node[key] as Record<string | number, unknown>;
    }
  });
}

function sample(name: string): unknown {
  return Object.hasOwn(SAMPLE_VALUES, name) ? SAMPLE_VALUES[name] : `${name} (test value)`;
}
