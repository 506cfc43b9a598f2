// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import type { PolicyResult } from '@vp-authorizer/core';
import { verifyCertificateChain } from '../../x509/index.js';
import type { CredentialView } from '../credential-view.js';
import { failed, isNonEmpty, passed, type Problem } from '../validator-results.js';

/**
 * `trustedIssuer` policy: every credential's issuer chain (SD-JWT `x5c`, mdoc `x5chain`, JWT VC
 * `x5c`) must lead to one of the configured PEM roots. Credentials without a chain (for example a
 * W3C VC signed by a DID) fail: with roots configured, an issuer we cannot anchor is untrusted.
 */
export async function trustedIssuerResult(path: (string | number)[], views: CredentialView[], roots: readonly string[], now: Date): Promise<PolicyResult> {
  const problems: Problem[] = [];
  for (const [i, view] of views.entries()) {
    const where = view.subIndex === undefined ? 'the credential' : `credential ${i} of the presentation`;
    if (view.x5c.length === 0) {
      problems.push({ code: 'trusted_issuer.untrusted', detail: `${where} carries no issuer certificate chain` });
      continue;
    }
    const verdict = await verifyCertificateChain(view.x5c, roots, now);
    if (!verdict.valid) problems.push({ code: 'trusted_issuer.untrusted', detail: `${where}: ${verdict.detail}` });
  }
  if (isNonEmpty(problems)) return failed('trustedIssuer', path, problems);
  if (views.length === 0) return failed('trustedIssuer', path, [{ code: 'trusted_issuer.untrusted', detail: 'the presentation contains no credential' }]);
  return passed('trustedIssuer', path, { trusted: true });
}
