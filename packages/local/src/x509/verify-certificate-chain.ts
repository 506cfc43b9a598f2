import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } from '@peculiar/x509';
import type { PolicyCode } from '@vp-authorizer/core';
import { certificateDer, parseCertificate, publicKeyOf, sameDer, type ParsedCertificate } from './certificate.js';
import { ChainVerdictCache, chainCacheKey } from './chain-verdict-cache.js';
import { ChainKeyMemo } from './chain-key-memo.js';
import { weakKeyProblem, weakSignatureProblem } from './certificate-strength.js';
import { signingLeafProblem } from './check-signing-leaf.js';
import { parseTrustAnchors } from './trust-anchors.js';

export type ChainVerification =
  | {
      valid: true;
      /** The end-entity certificate (x5c[0]); its key signed the credential. */
      leaf: ParsedCertificate;
      /** The certificates from the input, leaf first, anchor excluded. */
      chain: ParsedCertificate[];
      anchor: ParsedCertificate;
      /** x5c has more than one entry and one of them is a configured anchor (HAIP: must not). */
      anchorIncluded: boolean;
      /** x5c[0] itself is a configured anchor (a directly trusted key), by DER equality. */
      leafIsAnchor: boolean;
    }
  | { valid: false; code: Extract<PolicyCode, 'trusted_issuer.untrusted' | 'trusted_issuer.chain_invalid' | 'trusted_issuer.weak_algorithm'>; detail: string };

/** Extensions we process or can safely ignore; any other critical extension fails (RFC 5280 4.2). */
const KNOWN_EXTENSIONS = new Set([
  '2.5.29.19', // basicConstraints
  '2.5.29.15', // keyUsage
  '2.5.29.37', // extKeyUsage (application profile, checked by callers if needed)
  '2.5.29.17', // subjectAltName
  '2.5.29.18', // issuerAltName
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.31', // cRLDistributionPoints
  '2.5.29.32', // certificatePolicies
  '2.5.29.30', // nameConstraints: accepted on the anchor only (IACA profiles mark it critical); not evaluated
]);

const NAME_CONSTRAINTS = '2.5.29.30';

const MAX_CHAIN = 10;

const invalid = (detail: string): ChainVerification => ({ valid: false, code: 'trusted_issuer.chain_invalid', detail });
const weak = (detail: string): ChainVerification => ({ valid: false, code: 'trusted_issuer.weak_algorithm', detail });

function label(index: number, total: number): string {
  return index === 0 ? 'the leaf certificate' : index === total ? 'the trust anchor' : `intermediate certificate ${index}`;
}

function checkTimeAndExtensions(c: ParsedCertificate, name: string, now: Date): string | undefined {
  if (now < c.cert.notBefore) return `${name} is not yet valid`;
  if (now > c.cert.notAfter) return `${name} has expired`;
  const unknownCritical = c.cert.extensions.find((e) => e.critical && !KNOWN_EXTENSIONS.has(e.type));
  if (unknownCritical) return `${name} has an unsupported critical extension ${unknownCritical.type}`;
  return undefined;
}

/** Checks that `issuer` may issue certificates with `below` non-self-issued intermediates under it. */
function checkIssuerCa(issuer: ParsedCertificate, name: string, below: number): string | undefined {
  const bc = issuer.cert.getExtension(BasicConstraintsExtension);
  if (!bc?.ca) return `${name} is not a CA certificate (basicConstraints cA is not set)`;
  if (bc.pathLength !== undefined && below > bc.pathLength) return `${name} path length constraint is exceeded`;
  const ku = issuer.cert.getExtension(KeyUsagesExtension);
  if (ku && (ku.usages & KeyUsageFlags.keyCertSign) === 0) return `${name} key usage does not allow certificate signing`;
  return undefined;
}

function signedBy(child: ParsedCertificate, issuer: ParsedCertificate): boolean {
  // checkIssued compares issuer/subject names and AKI/SKI; verify checks the signature.
  try {
    return child.node.checkIssued(issuer.node) && child.node.verify(publicKeyOf(issuer));
  } catch {
    return false;
  }
}

/**
 * RFC 5280 path validation of an x5c chain (leaf first) against PEM trust anchors: validity
 * periods at `now`, issuer/subject chaining, signatures, basicConstraints cA and pathLen, keyUsage
 * keyCertSign, unknown critical extensions, and a signing leaf (not a CA, digitalSignature).
 * Weak cryptography fails with `trusted_issuer.weak_algorithm`: SHA-1/MD5 (or unknown) signatures
 * on any certificate below the anchor, RSA keys under 2048 bits, EC curves other than P-256/384/521,
 * DSA and other key types, on every certificate including the anchor.
 * Revocation (CRL/OCSP) is not checked. Name constraints are not evaluated, so a certificate
 * below the anchor that carries them is rejected rather than trusted beyond its constraints.
 * Resolves with a result; never throws for bad input.
 */
export async function verifyCertificateChain(
  x5c: readonly string[] | readonly Uint8Array[],
  anchorsPem: readonly string[],
  now: Date,
  { cache = sharedChainVerdicts }: { cache?: ChainVerdictCache<ValidChain> } = {},
): Promise<ChainVerification> {
  if (x5c.length === 0) return invalid('The certificate chain is empty');
  if (x5c.length > MAX_CHAIN) return invalid(`The certificate chain is longer than ${MAX_CHAIN}`);
  const at = now.getTime();
  const text = isText(x5c) ? x5c : undefined;
  // The same strings as a chain verified before: its key without decoding and hashing again.
  const knownKey = text && chainKeys.get(text, anchorsPem);
  if (knownKey !== undefined) {
    const cached = cache.get(knownKey, at);
    if (cached) return cached;
  }
  let ders: Uint8Array[];
  try {
    ders = x5c.map((entry) => certificateDer(entry));
  } catch {
    return invalid('A certificate in the chain could not be parsed');
  }
  const key = knownKey ?? chainCacheKey(ders, anchorsPem);
  const cached = cache.get(key, at);
  if (cached) {
    if (text && knownKey === undefined) chainKeys.set(text, anchorsPem, key);
    return cached;
  }
  const verdict = verifyUncached(ders, anchorsPem, now);
  // Only a full check's yes is remembered, for the validity periods that check relied on.
  if (verdict.valid) {
    cache.set(key, verdict, [...verdict.chain, verdict.anchor]);
    if (text) chainKeys.set(text, anchorsPem, key);
  }
  return verdict;
}

const isText = (x5c: readonly string[] | readonly Uint8Array[]): x5c is readonly string[] => x5c.every((entry) => typeof entry === 'string');

/** Keys of chains given as text that verified (see ChainKeyMemo), shared like the verdicts. */
const chainKeys = new ChainKeyMemo(64);

type ValidChain = Extract<ChainVerification, { valid: true }>;

/**
 * Verdicts shared by every caller in the process: the validator's trusted-issuer check and the
 * verifier's key resolution see the same x5c, so the second one is a lookup. Keyed by the exact
 * chain bytes and anchor set, bounded, and used only while every checked certificate is valid.
 */
export const sharedChainVerdicts = new ChainVerdictCache<ValidChain>(512);

function verifyUncached(ders: readonly Uint8Array[], anchorsPem: readonly string[], now: Date): ChainVerification {
  let chain: ParsedCertificate[];
  try {
    chain = ders.map((der) => parseCertificate(der));
  } catch {
    return invalid('A certificate in the chain could not be parsed');
  }
  const anchors = parseTrustAnchors(anchorsPem);
  const isAnchor = (c: ParsedCertificate) => anchors.find((a) => sameDer(a.der, c.der));
  // Any anchor in a multi-certificate x5c counts (HAIP §7), e.g. [anchor, anchor] or [leaf, anchor].
  const anchorIncluded = chain.length > 1 && chain.some((c) => isAnchor(c) !== undefined);
  // A chain may end with the anchor itself; it is then the anchor, not part of the path.
  let anchor = chain.length > 1 ? isAnchor(chain[chain.length - 1]!) : undefined;
  if (anchor) chain = chain.slice(0, -1);
  // Decided on what remains, by DER equality: [anchor, anchor] is a directly trusted leaf too.
  const leafAnchor = isAnchor(chain[0]!);
  const leafIsAnchor = leafAnchor !== undefined;

  for (const [i, c] of chain.entries()) {
    // Every key in the path must be strong; a configured anchor's own self-signature is not
    // relied on (it is trusted by configuration), every other certificate's signature is.
    const weakness = weakKeyProblem(c, label(i, chain.length)) ?? (isAnchor(c) ? undefined : weakSignatureProblem(c, label(i, chain.length)));
    if (weakness) return weak(weakness);
    const problem = checkTimeAndExtensions(c, label(i, chain.length), now);
    if (problem) return invalid(problem);
    if (!(i === 0 && leafIsAnchor) && c.cert.extensions.some((e) => e.type === NAME_CONSTRAINTS)) {
      return invalid(`${label(i, chain.length)} has nameConstraints, which are accepted only on a trust anchor`);
    }
  }
  const leafProblem = signingLeafProblem(chain[0]!);
  if (leafProblem) return invalid(leafProblem);
  for (let i = 0; i + 1 < chain.length; i++) {
    const name = label(i + 1, chain.length);
    if (!signedBy(chain[i]!, chain[i + 1]!)) return invalid(`${label(i, chain.length)} is not signed by ${name}`);
    const problem = checkIssuerCa(chain[i + 1]!, name, i);
    if (problem) return invalid(problem);
  }
  if (leafIsAnchor) return { valid: true, leaf: chain[0]!, chain, anchor: leafAnchor, anchorIncluded, leafIsAnchor: true };

  const top = chain[chain.length - 1]!;
  // A chain that ends with an anchor ends at that anchor: another trusted root appended after the
  // path (an mdoc's unprotected x5chain is the wallet's to edit) would otherwise be dropped unseen
  // while trusted_authorities matched the chain's top or AKIs against it.
  const ending = anchor;
  if (ending && !signedBy(top, ending)) return invalid(`${label(chain.length - 1, chain.length)} is not signed by the trust anchor the chain ends with`);
  anchor = ending ?? anchors.find((a) => signedBy(top, a));
  if (!anchor) return { valid: false, code: 'trusted_issuer.untrusted', detail: 'The certificate chain does not lead to a configured trust anchor' };
  // The anchor's key signed the top of the path: a weak anchor key makes the whole path weak.
  const weakAnchor = weakKeyProblem(anchor, 'the trust anchor');
  if (weakAnchor) return weak(weakAnchor);
  const anchorProblem = checkTimeAndExtensions(anchor, 'the trust anchor', now) ?? checkIssuerCa(anchor, 'the trust anchor', chain.length - 1);
  if (anchorProblem) return invalid(anchorProblem);
  return { valid: true, leaf: chain[0]!, chain, anchor, anchorIncluded, leafIsAnchor: false };
}
