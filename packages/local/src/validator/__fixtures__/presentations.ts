import { Encoder } from 'cbor-x';
import type { JsonObject, ParsedJwtVcPresentation, ParsedJwtVp, ParsedLdp, ParsedMdoc, ParsedSdJwt } from '@vp-authorizer/core';

// Test-only builders: decoded presentations as the format policy hands them over (no crypto).

const jwt = (header: JsonObject, payload: JsonObject) => ({ compact: 'h.p.s', header, payload });
const base = (queryId: string, index: number, format: string) => ({ path: [queryId, index], queryId, index, format });

export function sdJwt(
  queryId: string,
  claims: JsonObject,
  options: { index?: number; vct?: string; kb?: boolean; x5c?: string[]; format?: string; iss?: string; kid?: string } = {},
): ParsedSdJwt {
  const vct = options.vct ?? 'urn:eudi:pid:1';
  return {
    ...base(queryId, options.index ?? 0, options.format ?? 'dc+sd-jwt'),
    kind: 'sd-jwt',
    raw: 'issuer~d1~kb',
    issuerJwt: jwt({ alg: 'ES256', typ: 'dc+sd-jwt', ...(options.x5c ? { x5c: options.x5c } : {}), ...(options.kid ? { kid: options.kid } : {}) }, { vct, ...(options.iss ? { iss: options.iss } : {}) }),
    disclosures: [],
    ...(options.kb === false ? {} : { kbJwt: jwt({ typ: 'kb+jwt', alg: 'ES256' }, { nonce: 'n' }) }),
    claims: { vct, ...claims },
    vct,
  };
}

const encoder = new Encoder({ mapsAsObjects: false, useRecords: false });

/** A DeviceResponse whose only content that matters here is the issuerAuth x5chain. */
export function deviceResponseRaw(x5chain: Uint8Array[] | undefined, docType: string): string {
  const unprotected = new Map<number, unknown>();
  if (x5chain) unprotected.set(33, x5chain.length === 1 ? x5chain[0] : x5chain);
  const issuerAuth = [encoder.encode(new Map([[1, -7]])), unprotected, new Uint8Array([1]), new Uint8Array([2])];
  const doc = new Map<string, unknown>([
    ['docType', docType],
    ['issuerSigned', new Map<string, unknown>([['issuerAuth', issuerAuth]])],
  ]);
  const response = new Map<string, unknown>([
    ['version', '1.0'],
    ['documents', [doc]],
    ['status', 0],
  ]);
  return Buffer.from(encoder.encode(response)).toString('base64url');
}

export function mdoc(
  queryId: string,
  nameSpaces: Record<string, Record<string, unknown>>,
  options: { index?: number; docType?: string; deviceSignature?: boolean; x5chain?: Uint8Array[] } = {},
): ParsedMdoc {
  const docType = options.docType ?? 'org.iso.18013.5.1.mDL';
  return {
    ...base(queryId, options.index ?? 0, 'mso_mdoc'),
    kind: 'mdoc',
    raw: deviceResponseRaw(options.x5chain, docType),
    version: '1.0',
    status: 0,
    documents: [
      {
        docType,
        nameSpaces: Object.fromEntries(
          Object.entries(nameSpaces).map(([ns, elements]) => [ns, Object.entries(elements).map(([elementIdentifier, elementValue], digestID) => ({ digestID, elementIdentifier, elementValue }))]),
        ),
        hasDeviceSignature: options.deviceSignature ?? true,
        hasDeviceMac: false,
      },
    ],
  };
}

export function jwtVc(queryId: string, credential: JsonObject, options: { index?: number; iss?: string; kid?: string } = {}): ParsedJwtVcPresentation {
  const types = Array.isArray(credential.type) ? (credential.type as string[]) : [];
  const header = { alg: 'ES256', ...(options.kid ? { kid: options.kid } : {}) };
  return { ...base(queryId, options.index ?? 0, 'jwt_vc_json'), kind: 'jwt-vc', raw: 'h.p.s', jwt: jwt(header, { vc: credential, ...(options.iss ? { iss: options.iss } : {}) }), dataModel: '1.1', credential, types };
}

export function jwtVp(queryId: string, credentials: JsonObject[], options: { index?: number; format?: string } = {}): ParsedJwtVp {
  return {
    ...base(queryId, options.index ?? 0, options.format ?? 'jwt_vc_json'),
    kind: 'jwt-vp',
    raw: 'h.p.s',
    jwt: jwt({ alg: 'ES256' }, { vp: {} }),
    dataModel: '1.1',
    presentation: {},
    credentials: credentials.map((credential) => ({
      kind: 'jwt-vc' as const,
      jwt: jwt({ alg: 'ES256' }, { vc: credential, iss: 'did:example:issuer' }),
      dataModel: '1.1' as const,
      credential,
      types: Array.isArray(credential.type) ? (credential.type as string[]) : [],
    })),
  };
}

export function ldp(queryId: string, raw: JsonObject, options: { index?: number; format?: string } = {}): ParsedLdp {
  return { ...base(queryId, options.index ?? 0, options.format ?? 'ldp_vc'), kind: 'ldp', raw };
}
