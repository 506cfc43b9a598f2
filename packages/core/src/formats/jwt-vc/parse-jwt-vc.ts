import { decodeCompactJwt, isDecodeError, isJsonObject } from '../shared/decode-jwt.js';
import { FormatFailure } from '../format-error.js';
import type { PresentationRef } from '../format-descriptor.js';
import { w3cTypes } from '../shared/w3c-claims.js';
import type { DecodedJwt, JsonObject, ParsedJwtVc, ParsedJwtVcPresentation, ParsedJwtVp } from '../../model/parsed-presentation.js';

const VC_TYP = new Set(['vc+jwt', 'vc+ld+json+jwt']);
const VP_TYP = new Set(['vp+jwt', 'vp+ld+json+jwt']);
/** VC-JOSE-COSE enveloped credential: `{"type":"EnvelopedVerifiableCredential","id":"data:application/vc+jwt,<jwt>"}`. */
const ENVELOPED_JWT = /^data:application\/(?:vc\+jwt|vc\+ld\+json\+jwt),(.+)$/;

const headerTyp = (jwt: DecodedJwt): string => (typeof jwt.header.typ === 'string' ? jwt.header.typ.toLowerCase() : '');

/**
 * A `vc+jwt`/`vp+jwt` typ (VCDM 2.0) with a `vc`/`vp` claim (VCDM 1.1) is ambiguous: two readers
 * could pick different credentials from the same JWT. Reject it instead of choosing one.
 */
function rejectAmbiguousDataModel(jwt: DecodedJwt, claim: 'vc' | 'vp', path: (string | number)[], where: string): void {
  if ((claim === 'vc' ? VC_TYP : VP_TYP).has(headerTyp(jwt)) && jwt.payload[claim] !== undefined) {
    throw new FormatFailure('format.jwt_malformed', `${where} has a ${claim}+jwt typ (VCDM 2.0) and a ${claim} claim (VCDM 1.1)`, path);
  }
}

/** VCDM 1.1 puts the presentation under `vp`; VCDM 2.0 (VC-JOSE-COSE) makes the payload the presentation. */
function presentationShape(jwt: DecodedJwt, path: (string | number)[]): { dataModel: '1.1' | '2.0'; presentation: JsonObject } | undefined {
  rejectAmbiguousDataModel(jwt, 'vp', path, 'the JWT');
  if (isJsonObject(jwt.payload.vp)) return { dataModel: '1.1', presentation: jwt.payload.vp };
  if (VP_TYP.has(headerTyp(jwt)) || w3cTypes(jwt.payload).includes('VerifiablePresentation')) return { dataModel: '2.0', presentation: jwt.payload };
  return undefined;
}

/** Decodes a JWT VC (VCDM 1.1 `vc` claim, or 2.0 where the payload is the credential); throws FormatFailure. */
function credentialFromJwt(jwt: DecodedJwt, path: (string | number)[], where: string): ParsedJwtVc {
  rejectAmbiguousDataModel(jwt, 'vc', path, where);
  if (isJsonObject(jwt.payload.vc)) {
    return { kind: 'jwt-vc', jwt, dataModel: '1.1', credential: jwt.payload.vc, types: w3cTypes(jwt.payload.vc) };
  }
  const types = w3cTypes(jwt.payload);
  if (VC_TYP.has(headerTyp(jwt)) || types.includes('VerifiableCredential')) {
    return { kind: 'jwt-vc', jwt, dataModel: '2.0', credential: jwt.payload, types };
  }
  throw new FormatFailure('format.jwt_malformed', `${where} is neither a VCDM 1.1 (vc claim) nor a VCDM 2.0 credential`, path);
}

function embeddedCredential(entry: unknown, path: (string | number)[], where: string): ParsedJwtVc {
  let compact = entry;
  if (isJsonObject(entry) && w3cTypes(entry).includes('EnvelopedVerifiableCredential') && typeof entry.id === 'string') {
    compact = ENVELOPED_JWT.exec(entry.id)?.[1];
  }
  if (typeof compact !== 'string') {
    throw new FormatFailure('format.jwt_malformed', `${where} is not a JWT credential (embedded non-JWT credentials are not supported)`, path);
  }
  const jwt = decodeCompactJwt(compact);
  if (isDecodeError(jwt)) throw new FormatFailure('format.jwt_malformed', `${where}: ${jwt.error}`, path);
  return credentialFromJwt(jwt, path, where);
}

/**
 * `jwt_vc_json` (and PE `jwt_vp_json` / `jwt_vp`): a JWT that is either a VP (holder binding)
 * or a plain VC (OpenID4VP B.1 allows a VC when binding is not required). `requireVp` is set
 * for the PE VP formats. No signature checks here.
 */
export function parseJwtVcOrVp(value: unknown, ref: PresentationRef, options: { requireVp?: boolean } = {}): ParsedJwtVp | ParsedJwtVcPresentation {
  const jwt = decodeCompactJwt(value);
  if (isDecodeError(jwt)) throw new FormatFailure('format.jwt_malformed', jwt.error, ref.path);
  const raw = jwt.compact;
  const vp = presentationShape(jwt, ref.path);
  if (!vp) {
    if (options.requireVp) throw new FormatFailure('format.jwt_malformed', 'expected a verifiable presentation JWT (vp claim or VerifiablePresentation type)', ref.path);
    return { ...ref, ...credentialFromJwt(jwt, ref.path, 'the JWT'), raw };
  }
  const entries = vp.presentation.verifiableCredential;
  const list = entries === undefined ? [] : Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) throw new FormatFailure('format.jwt_malformed', 'the presentation contains no verifiableCredential', ref.path);
  const credentials = list.map((entry, i) => embeddedCredential(entry, ref.path, `verifiableCredential[${i}]`));
  return { ...ref, kind: 'jwt-vp', raw, jwt, dataModel: vp.dataModel, presentation: vp.presentation, credentials };
}
