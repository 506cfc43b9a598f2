import { vicalServiceType } from './vical.js';

/** What a certificate would vouch for: a credential of these types, or a status list. */
export interface VouchRequest {
  purpose: 'credential' | 'status_list';
  /** SD-JWT VC `vct`, mdoc docType, W3C VC `type` values; empty when the credential names none. */
  credentialTypes: readonly string[];
}

/** Decides which listed service types may vouch for a request. */
export type Vouching = (request: VouchRequest) => readonly string[];

const SVC = 'http://uri.etsi.org/19602/SvcType';
export const SERVICE_TYPES = {
  pidIssuance: `${SVC}/PID/Issuance`,
  pidRevocation: `${SVC}/PID/Revocation`,
  qeaaIssuance: `${SVC}/QEAA/Issuance`,
  qeaaRevocation: `${SVC}/QEAA/Revocation`,
  pubEaaIssuance: `${SVC}/PubEAA/Issuance`,
  pubEaaRevocation: `${SVC}/PubEAA/Revocation`,
  eaaIssuance: `${SVC}/EAA/Issuance`,
  eaaRevocation: `${SVC}/EAA/Revocation`,
} as const;

/** PID credential types: the SD-JWT VC `urn:eudi:pid:` family and the mdoc PID docType. */
const isPid = (type: string): boolean => type.startsWith('urn:eudi:pid:') || type === 'eu.europa.ec.eudi.pid.1';

/**
 * The default: a PID is vouched for only by PID providers (TS 119 602 PID issuance services); any
 * other attestation by QEAA, Pub-EAA and EAA providers; an mdoc also by the VICAL IACAs listed for
 * its docType; a status list by the revocation services of the same kinds. Relying parties with
 * other schemes (a national list's service types, a qualified CA type) pass their own function.
 */
export const defaultVouching: Vouching = ({ purpose, credentialTypes }) => {
  if (purpose === 'status_list') return [SERVICE_TYPES.pidRevocation, SERVICE_TYPES.qeaaRevocation, SERVICE_TYPES.pubEaaRevocation, SERVICE_TYPES.eaaRevocation];
  const types = new Set<string>();
  for (const type of credentialTypes) {
    if (isPid(type)) types.add(SERVICE_TYPES.pidIssuance);
    else [SERVICE_TYPES.qeaaIssuance, SERVICE_TYPES.pubEaaIssuance, SERVICE_TYPES.eaaIssuance].forEach((t) => types.add(t));
    types.add(vicalServiceType(type));
  }
  return [...types];
};
