// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import type { PolicyResult } from '@vp-authorizer/core';
import { sameDer } from '../../x509/certificate.js';
import { parseTrustAnchors, verifyCertificateChain } from '../../x509/index.js';
import { anchorsForChain, type IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import type { CredentialView } from '../credential-view.js';
import { failed, isNonEmpty, passed, type Problem } from '../validator-results.js';
import { didRule, type TrustedIssuerEntries, type TrustRule } from './trusted-issuer-entries.js';

/** What made one credential of the presentation trusted: safe to return (DIDs and certificate subjects). */
export interface TrustMatch {
  /** Index of the credential in the presentation (a VP's embedded credentials, an mdoc's documents). */
  credential: number;
  rule: TrustRule;
  /** The issuer DID (DID rules, a list naming the DID) or the subject of the anchor the chain leads to. */
  issuer: string;
  /** The configured entry that matched (`did_web_domain`: `did:web:<domain>`). */
  entry?: string;
}

/**
 * A credential issued under a DID, carrying no chain: trusted when its issuer matches a configured
 * DID rule (or a list names it) and its signature key is taken from that DID's document. The
 * verifier resolves the key from that document (the current one) and fails the signature
 * otherwise; here a key reference naming another DID is refused outright.
 */
async function didTrust(view: CredentialView, entries: TrustedIssuerEntries, credentialTypes: readonly string[], lists: IssuerAnchorSource | undefined, where: string): Promise<{ match: Omit<TrustMatch, 'credential'> } | { problem: Problem }> {
  const did = view.issuer;
  if (did === undefined || !did.startsWith('did:')) return { problem: { code: 'trusted_issuer.untrusted', detail: `${where} carries no issuer certificate chain and its issuer is not a DID` } };
  const foreign = view.keyDids.find((keyDid) => keyDid !== did);
  if (view.keyDids.length === 0 || foreign !== undefined) {
    return { problem: { code: 'trusted_issuer.untrusted', detail: `${where}: the signing key is not from the issuer's DID document (it names ${foreign ?? 'no DID'})` } };
  }
  const rule = didRule(entries, did);
  if (rule) return { match: { rule: rule.rule, issuer: did, entry: rule.entry } };
  if (lists?.issuerDid) {
    const answer = await lists.issuerDid({ did, credentialTypes });
    if (answer.listed) return { match: { rule: 'list', issuer: did } };
    if (answer.refusal) return { problem: { code: answer.refusal.code, detail: `${where}: ${answer.refusal.detail}` } };
  }
  return { problem: { code: 'trusted_issuer.untrusted', detail: `${where}: the issuer ${did.slice(0, 120)} is not a trusted issuer DID` } };
}

/**
 * `trustedIssuer` policy, per credential of the presentation: a certificate chain (SD-JWT / JWT
 * VC `x5c`, mdoc `x5chain`) must lead to a configured root or a root `lists` gives for the
 * credential's type; a credential without a chain must be issued under a trusted DID (configured
 * exactly, by did:web domain, or named by a list) with a key from that DID's document. The passed
 * result lists, per credential, which rule matched.
 */
export async function trustedIssuerResult(path: (string | number)[], views: CredentialView[], entries: TrustedIssuerEntries, now: Date, lists?: IssuerAnchorSource): Promise<PolicyResult> {
  const problems: Problem[] = [];
  const matches: TrustMatch[] = [];
  for (const [i, view] of views.entries()) {
    const where = view.subIndex === undefined ? 'the credential' : `credential ${i} of the presentation`;
    const credentialTypes = [view.vct, view.docType, ...(view.types ?? [])].filter((t): t is string => typeof t === 'string');
    if (view.x5c.length === 0) {
      const outcome = await didTrust(view, entries, credentialTypes, lists, where);
      if ('problem' in outcome) problems.push(outcome.problem);
      else matches.push({ credential: i, ...outcome.match });
      continue;
    }
    const { anchors, refusal } = await anchorsForChain(entries.roots, lists, view.x5c, { purpose: 'credential', credentialTypes });
    const verdict = await verifyCertificateChain(view.x5c, anchors, now);
    if (!verdict.valid) {
      problems.push(verdict.code === 'trusted_issuer.untrusted' && refusal ? { code: refusal.code, detail: `${where}: ${refusal.detail}` } : { code: 'trusted_issuer.untrusted', detail: `${where}: ${verdict.detail}` });
      continue;
    }
    const configured = parseTrustAnchors(entries.roots).some((root) => sameDer(root.der, verdict.anchor.der));
    matches.push({ credential: i, rule: configured ? 'root' : 'list', issuer: verdict.anchor.cert.subject });
  }
  if (isNonEmpty(problems)) return failed('trustedIssuer', path, problems);
  if (views.length === 0) return failed('trustedIssuer', path, [{ code: 'trusted_issuer.untrusted', detail: 'the presentation contains no credential' }]);
  return passed('trustedIssuer', path, { trusted: true, matches });
}
