// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import type { PolicyResult } from '@vp-authorizer/core';
import { verifyCertificateChain } from '../../x509/index.js';
import { anchorsForChain, type IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import type { CredentialView } from '../credential-view.js';
import { failed, isNonEmpty, passed, type Problem } from '../validator-results.js';

/**
 * `trustedIssuer` policy: every credential's issuer chain (SD-JWT `x5c`, mdoc `x5chain`, JWT VC
 * `x5c`) must lead to one of the configured PEM roots. Credentials without a chain (for example a
 * W3C VC signed by a DID) fail: with roots configured, an issuer we cannot anchor is untrusted.
 * With `lists`, the roots they give for each credential's type are added for that credential.
 */
export async function trustedIssuerResult(path: (string | number)[], views: CredentialView[], roots: readonly string[], now: Date, lists?: IssuerAnchorSource): Promise<PolicyResult> {
  const problems: Problem[] = [];
  for (const [i, view] of views.entries()) {
    const where = view.subIndex === undefined ? 'the credential' : `credential ${i} of the presentation`;
    if (view.x5c.length === 0) {
      problems.push({ code: 'trusted_issuer.untrusted', detail: `${where} carries no issuer certificate chain` });
      continue;
    }
    const credentialTypes = [view.vct, view.docType, ...(view.types ?? [])].filter((t): t is string => typeof t === 'string');
    const { anchors, refusal } = await anchorsForChain(roots, lists, view.x5c, { purpose: 'credential', credentialTypes });
    const verdict = await verifyCertificateChain(view.x5c, anchors, now);
    if (!verdict.valid) problems.push(verdict.code === 'trusted_issuer.untrusted' && refusal ? { code: refusal.code, detail: `${where}: ${refusal.detail}` } : { code: 'trusted_issuer.untrusted', detail: `${where}: ${verdict.detail}` });
  }
  if (isNonEmpty(problems)) return failed('trustedIssuer', path, problems);
  if (views.length === 0) return failed('trustedIssuer', path, [{ code: 'trusted_issuer.untrusted', detail: 'the presentation contains no credential' }]);
  return passed('trustedIssuer', path, { trusted: true });
}
