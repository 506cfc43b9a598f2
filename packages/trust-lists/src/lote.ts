import { withinJsonDepth } from '@vp-authorizer/core/formats';
import { compactVerify, decodeProtectedHeader, importX509, type CompactJWSHeaderParameters } from 'jose';
import { listedCertificate, type ListedCertificate } from './listed-certificate.js';
import { chainToSigner } from './signer-chain.js';
import { TrustListError } from './trust-list-error.js';
import type { ListedService, StatusPeriod, TrustedListContent } from './trusted-list-content.js';

/** JWS algorithms a LoTE may be signed with (JAdES baseline; no `none`, no HMAC). */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];
/** Most services one LoTE may declare. */
const MAX_ENTRIES = 20_000;
/** Longest DID kept from an `OtherIds` entry (longer ones are not issuer DIDs a credential could name). */
const MAX_DID_LENGTH = 2_048;

/** The status of a service listed without one (a PID-provider LoTE lists only the providers it recognises). */
export const LOTE_LISTED = 'urn:vp-authorizer:lote:listed';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** A multilingual value (`[{lang, value}]`), English first. */
const firstName = (v: unknown): string => {
  const names = array(v).filter(isObject);
  return text((names.find((n) => n.lang === 'en') ?? names[0])?.value) ?? '';
};

/**
 * Reads an ETSI TS 119 602 List of Trusted Entities in its JSON binding, signed as a compact JWS
 * (JAdES baseline B): `x5c[0]` verifies the signature and the `x5c` chain must lead to a
 * configured list signer. The critical JAdES header `sigT` (claimed signing time) is understood;
 * any other critical header refuses the list.
 */
export async function readLote(bytes: Uint8Array, signers: readonly ListedCertificate[], now: number, maxBytes: number, where: string): Promise<TrustedListContent> {
  if (bytes.byteLength > maxBytes) throw new TrustListError('too_large', `${where}: the document is larger than ${maxBytes} bytes`);
  const jws = Buffer.from(bytes).toString('utf8').trim();
  let header: CompactJWSHeaderParameters;
  try {
    header = decodeProtectedHeader(jws) as CompactJWSHeaderParameters;
  } catch {
    throw new TrustListError('malformed', `${where}: not a compact JWS`);
  }
  if (typeof header.alg !== 'string' || !ALGORITHMS.includes(header.alg)) throw new TrustListError('signature_invalid', `${where}: JWS algorithm ${String(header.alg)} is not accepted`);
  if (!Array.isArray(header.x5c) || header.x5c.length === 0 || !header.x5c.every((c) => typeof c === 'string')) throw new TrustListError('malformed', `${where}: the JWS header has no x5c`);
  const chain = header.x5c.map((c, i) => listedCertificate(c, `${where} x5c ${i}`));
  const signer = chainToSigner(
    chain.map((c) => c.der),
    signers,
    now,
    `${where} x5c`,
  );
  let payload: Uint8Array;
  try {
    const key = await importX509(chain[0]!.pem, header.alg);
    ({ payload } = await compactVerify(jws, key, { algorithms: [header.alg], crit: { sigT: true } }));
  } catch (error) {
    throw new TrustListError('signature_invalid', `${where}: the JWS signature does not verify (the list was changed after signing)`, { cause: error });
  }
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    throw new TrustListError('malformed', `${where}: the payload is not JSON`);
  }
  if (!withinJsonDepth(document)) throw new TrustListError('malformed', `${where}: the payload nests too deeply`);
  const lote = isObject(document) ? document.LoTE : undefined;
  if (!isObject(lote) || !isObject(lote.ListAndSchemeInformation)) throw new TrustListError('malformed', `${where}: the payload is not a LoTE`);
  const scheme = lote.ListAndSchemeInformation;
  const listType = text(scheme.LoTEType);
  if (!listType) throw new TrustListError('malformed', `${where}: no LoTEType`);
  const issuedAt = dateOf(scheme.ListIssueDateTime, `${where} ListIssueDateTime`);
  const nextUpdate = scheme.NextUpdate === null || scheme.NextUpdate === undefined ? undefined : dateOf(scheme.NextUpdate, `${where} NextUpdate`);
  const entities = array(lote.TrustedEntitiesList);
  const services: ListedService[] = [];
  for (const [i, entity] of entities.entries()) {
    if (!isObject(entity)) throw new TrustListError('malformed', `${where} entity ${i}: not an object`);
    const provider = firstName(isObject(entity.TrustedEntityInformation) ? entity.TrustedEntityInformation.TEName : undefined);
    for (const [j, service] of array(entity.TrustedEntityServices).entries()) {
      const at = `${where} entity ${i} service ${j}`;
      const info = isObject(service) ? service.ServiceInformation : undefined;
      if (!isObject(info)) throw new TrustListError('malformed', `${at}: no ServiceInformation`);
      const serviceType = text(info.ServiceTypeIdentifier);
      if (!serviceType) throw new TrustListError('malformed', `${at}: no ServiceTypeIdentifier`);
      const identity = isObject(info.ServiceDigitalIdentity) ? info.ServiceDigitalIdentity : {};
      const certificates = array(identity.X509Certificates).map((c, k) => listedCertificate(text(isObject(c) ? c.val : c) ?? '', `${at} certificate ${k}`));
      const dids = didsOf(identity.OtherIds);
      const current: StatusPeriod = text(info.ServiceStatus)
        ? { status: info.ServiceStatus as string, from: dateOf(info.StatusStartingTime, `${at} StatusStartingTime`) }
        : { status: LOTE_LISTED, from: Number.NEGATIVE_INFINITY };
      const history = array(isObject(service) ? service.ServiceHistory : undefined).map((h, k) => {
        if (!isObject(h) || !text(h.ServiceStatus)) throw new TrustListError('malformed', `${at} history ${k}: no ServiceStatus`);
        return { status: h.ServiceStatus as string, from: dateOf(h.StatusStartingTime, `${at} history ${k} StatusStartingTime`) };
      });
      services.push({ serviceType, provider, name: firstName(info.ServiceName), certificates, ...(dids.length > 0 ? { dids } : {}), statuses: [...history, current].sort((a, b) => a.from - b.from) });
      if (services.length > MAX_ENTRIES) throw new TrustListError('malformed', `${where}: more than ${MAX_ENTRIES} services`);
    }
  }
  const territory = text(scheme.SchemeTerritory);
  const sequence = scheme.LoTESequenceNumber;
  return {
    kind: 'lote',
    listType,
    ...(territory ? { territory } : {}),
    ...(typeof sequence === 'number' && Number.isSafeInteger(sequence) ? { sequence } : {}),
    issuedAt,
    ...(nextUpdate !== undefined ? { nextUpdate } : {}),
    services,
    pointers: [],
    signer,
  };
}

/**
 * The DIDs among a digital identity's `OtherIds` (TS 119 602 clause 6.6.3 leaves their format open;
 * a DID is one such identifier). Other identifiers are ignored, not refused: they may name the
 * service some other way.
 */
function didsOf(otherIds: unknown): string[] {
  const dids = array(otherIds)
    .map((id) => text(id))
    .filter((id): id is string => id !== undefined && id.length <= MAX_DID_LENGTH && /^did:[a-z0-9]+:\S+$/.test(id));
  return [...new Set(dids)];
}

function dateOf(value: unknown, where: string): number {
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw new TrustListError('malformed', `${where} is not a date-time`);
  return at;
}
