import { STATUS_INVALID, STATUS_SUSPENDED, STATUS_VALID } from '../status-list/read-status-value.js';
import { StatusListError } from '../status-list/status-list-error.js';
import type { ParsedCertificate } from '../x509/certificate.js';
import { isRecord } from './encoding.js';
import { PolicyFailure } from './policy-failure.js';
import type { VerifierContext } from './verifier-context.js';

/**
 * Token Status List check of a `status` claim: `{status_list: {idx, uri}}`. The status list token
 * must chain to `issuerAnchor`, the anchor of the credential's own x5c. A credential without one
 * (DID issuer) cannot be tied to a status list signer, so its status is unavailable.
 */
export async function checkTokenStatus(status: unknown, issuerAnchor: ParsedCertificate | undefined, ctx: VerifierContext): Promise<Record<string, unknown>> {
  if (!isRecord(status) || !isRecord(status.status_list)) throw new PolicyFailure('status.unsupported', 'Only the Token Status List mechanism (status.status_list) is supported');
  const { idx, uri } = status.status_list;
  if (typeof uri !== 'string' || typeof idx !== 'number') throw new PolicyFailure('status.unavailable', 'status.status_list must have a numeric idx and a string uri');
  if (!ctx.options.statusList.enabled) return { checked: false, reason: 'status list checks are disabled' };
  if (!issuerAnchor) throw new PolicyFailure('status.unavailable', 'A status list can be checked only for a credential whose issuer key comes from an x5c chain');
  let value: number;
  try {
    value = await ctx.statusLists.status({ uri, idx, now: ctx.now, allowedAlgs: ctx.allowedAlgs, signal: ctx.signal, issuerAnchor: issuerAnchor.der, haip: ctx.haip });
  } catch (error) {
    if (error instanceof StatusListError) throw new PolicyFailure(error.code, error.message);
    throw error;
  }
  if (value === STATUS_INVALID) throw new PolicyFailure('status.revoked');
  if (value === STATUS_SUSPENDED) throw new PolicyFailure('status.suspended');
  if (value !== STATUS_VALID) throw new PolicyFailure('status.unknown_value', `The status list reports the value ${value}`);
  return { status: 'valid', uri, idx };
}
