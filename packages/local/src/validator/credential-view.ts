import type { JsonObject, ParsedPresentation } from '@vp-authorizer/core';
import { dispatchByFamily, formatDescriptor, presentationFormat, type FamilyHandlers, type FormatFamily } from '@vp-authorizer/core/formats';
import { mdocIssuerCertificateChains } from './trust/mdoc-x5chain.js';
import type { ViewTypeExpansion } from './w3c-type-expansion.js';

/** The family of the credential's format (core's format registry). */
export type CredentialFamily = FormatFamily;

/**
 * One credential inside a presentation, reduced to what query matching needs. An SD-JWT or a
 * plain W3C VC is one credential; an mdoc DeviceResponse has one per document; a VP has one per
 * embedded credential.
 */
export interface CredentialView {
  family: CredentialFamily;
  /** mdoc document index or VP credential index; undefined when the presentation is the credential. */
  subIndex: number | undefined;
  vct?: string;
  docType?: string;
  types?: string[];
  /**
   * W3C: the `type` values expanded with the credential's `@context` (set by
   * `expandViewTypes` before matching); undefined when the credential carries no `@context`.
   */
  expandedTypes?: ViewTypeExpansion;
  /**
   * Where DCQL claims paths start: the SD-JWT payload with disclosures resolved, the mdoc
   * `{namespace: {element: value}}` object, or the W3C credential object (VP §B.1.2).
   */
  claims: unknown;
  /** Extra JSON documents Presentation Exchange paths may address (the JWT payload of a JWT VC). */
  peDocuments: unknown[];
  /** A holder proof is present: KB-JWT, mdoc deviceSignature, or a VP proof. Verified by the verifier. */
  holderBinding: boolean;
  /**
   * Issuer certificate chain, leaf first; empty when the credential carries none. DER for mdoc;
   * for a JOSE `x5c` header its standard base64 DER strings, as given (checked as base64, decoded
   * where used), so that the chain check recognises the strings it (or the verifier) saw before.
   */
  x5c: readonly string[] | readonly Uint8Array[];
  /** The issuer as the credential states it: JWT `iss`, W3C `issuer` / `issuer.id`. */
  issuer?: string;
  /**
   * The DIDs whose documents the signature key is taken from (the DID of a `kid` or Data
   * Integrity `verificationMethod` DID URL; the `iss` DID when a JWS names no DID key); empty
   * when the key comes from an `x5c` chain or no DID.
   */
  keyDids: readonly string[];
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `x5c` header: standard base64 DER strings (RFC 7515 §4.1.6). Anything else yields no chain. */
function x5cFromHeader(header: JsonObject): readonly string[] {
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || !x5c.every((c) => typeof c === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(c))) return [];
  // A copy: the header's array could change after the check; its strings cannot.
  return Object.freeze([...(x5c as string[])]);
}

/** The DID of a DID URL (`did:web:a.example:u#key-1` → `did:web:a.example:u`). */
const didOf = (url: unknown): string | undefined => (typeof url === 'string' && url.startsWith('did:') ? url.split(/[#?/]/, 1)[0] : undefined);

/** W3C `issuer`: a URL, or an object with an `id`. */
function w3cIssuer(credential: JsonObject): string | undefined {
  const issuer = credential.issuer;
  if (typeof issuer === 'string') return issuer;
  return isObject(issuer) && typeof issuer.id === 'string' ? issuer.id : undefined;
}

/** Issuer and key DIDs of a JWS-secured credential: the key is the x5c leaf's, the `kid` DID URL's, or from the `iss` DID's document. */
function jwsIssuer(header: JsonObject, payload: JsonObject, credential?: JsonObject): Pick<CredentialView, 'issuer' | 'keyDids'> {
  const iss = typeof payload.iss === 'string' ? payload.iss : credential ? w3cIssuer(credential) : undefined;
  const keyDid = header.x5c !== undefined ? undefined : (didOf(header.kid) ?? didOf(iss));
  return { ...(iss === undefined ? {} : { issuer: iss }), keyDids: keyDid === undefined ? [] : [keyDid] };
}

/** Issuer and key DIDs of a Data Integrity credential: the DID of each proof's verification method. */
function ldpIssuer(credential: JsonObject): Pick<CredentialView, 'issuer' | 'keyDids'> {
  const issuer = w3cIssuer(credential);
  const proofs = Array.isArray(credential.proof) ? credential.proof : [credential.proof];
  const keyDids = proofs.map((proof) => (isObject(proof) ? didOf(proof.verificationMethod) : undefined)).filter((d): d is string => d !== undefined);
  return { ...(issuer === undefined ? {} : { issuer }), keyDids };
}

function w3cTypes(credential: JsonObject): string[] {
  const type = credential.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Views of one family's presentations; `@vp-authorizer/core/formats` decides which family a presentation is in. */
const VIEWS: FamilyHandlers<CredentialView[]> = {
  'sd-jwt': (presentation) => {
    const vct = presentation.vct ?? (typeof presentation.claims.vct === 'string' ? presentation.claims.vct : undefined);
    return [
      {
        family: 'sd-jwt',
        subIndex: undefined,
        ...(vct === undefined ? {} : { vct }),
        claims: presentation.claims,
        peDocuments: [presentation.claims],
        holderBinding: presentation.kbJwt !== undefined,
        x5c: x5cFromHeader(presentation.issuerJwt.header),
        ...jwsIssuer(presentation.issuerJwt.header, presentation.issuerJwt.payload),
      },
    ];
  },
  mdoc: (presentation) => {
    const chains = mdocIssuerCertificateChains(presentation.raw);
    return presentation.documents.map((doc, d) => {
      const claims = Object.fromEntries(
        Object.entries(doc.nameSpaces).map(([ns, items]) => [ns, Object.fromEntries(items.map((item) => [item.elementIdentifier, item.elementValue]))]),
      );
      // deviceMac has no verifier key in OpenID4VP, so only a deviceSignature counts as binding.
      return { family: 'mdoc' as const, subIndex: d, docType: doc.docType, claims, peDocuments: [claims], holderBinding: doc.hasDeviceSignature, x5c: chains[d] ?? [], keyDids: [] };
    });
  },
  w3c: (presentation) => {
    switch (presentation.kind) {
      case 'jwt-vc':
        return [
          {
            family: 'w3c',
            subIndex: undefined,
            types: presentation.types,
            claims: presentation.credential,
            peDocuments: [presentation.credential, presentation.jwt.payload],
            holderBinding: false,
            x5c: x5cFromHeader(presentation.jwt.header),
            ...jwsIssuer(presentation.jwt.header, presentation.jwt.payload, presentation.credential),
          },
        ];
      case 'jwt-vp':
        // The VP JWT is the holder proof; the verifier checks its signature, nonce and audience.
        return presentation.credentials.map((vc, i) => ({
          family: 'w3c' as const,
          subIndex: i,
          types: vc.types,
          claims: vc.credential,
          peDocuments: [vc.credential, vc.jwt.payload],
          holderBinding: true,
          x5c: x5cFromHeader(vc.jwt.header),
          ...jwsIssuer(vc.jwt.header, vc.jwt.payload, vc.credential),
        }));
      case 'ldp': {
        const raw = presentation.raw;
        const isVp = w3cTypes(raw).includes('VerifiablePresentation');
        if (!isVp) return [{ family: 'w3c', subIndex: undefined, types: w3cTypes(raw), claims: raw, peDocuments: [raw], holderBinding: false, x5c: [], ...ldpIssuer(raw) }];
        const embedded = Array.isArray(raw.verifiableCredential) ? raw.verifiableCredential : [raw.verifiableCredential];
        return embedded.filter(isObject).map((vc, i) => ({
          family: 'w3c' as const,
          subIndex: i,
          types: w3cTypes(vc),
          claims: vc,
          peDocuments: [vc],
          holderBinding: raw.proof !== undefined,
          x5c: [],
          ...ldpIssuer(vc),
        }));
      }
    }
  },
};

/** The credentials of a presentation; none when it is in no registered format (nothing can match it). */
export function credentialViews(presentation: ParsedPresentation): CredentialView[] {
  return dispatchByFamily(presentation, VIEWS, () => []);
}

/**
 * DCQL 6.2 (a): the presentation is in the format the query asks for, under either of its names
 * (`vc+sd-jwt` for `dc+sd-jwt` and back), and decoded as that format decodes (a JWT where an ldp
 * object was asked fails).
 */
export function dcqlFormatMatches(queryFormat: string, presentation: ParsedPresentation): boolean {
  const asked = formatDescriptor(queryFormat);
  return asked !== undefined && presentationFormat(presentation) === asked;
}

export function presentationKey(path: (string | number)[]): string {
  return JSON.stringify(path);
}
