import type { PolicyCode } from '@vp-authorizer/core';
import { certificateDer } from './certificate.js';

/** What a chain's top certificate would vouch for. */
export interface IssuerAnchorQuery {
  purpose: 'credential' | 'status_list';
  /** SD-JWT VC `vct`, mdoc docType or W3C VC `type` values; empty when the credential names none. */
  credentialTypes: readonly string[];
  /** DER of the last certificate of the presented chain. */
  top: Uint8Array;
  /** The credential's stated issuance time (epoch ms), when it has one. */
  issuedAt?: number;
}

/** Anchors (PEM) to validate the chain against; when there are none, why. */
export interface IssuerAnchorAnswer {
  anchors: readonly string[];
  refusal?: { code: Extract<PolicyCode, 'trusted_issuer.untrusted' | 'trusted_issuer.withdrawn' | 'trusted_issuer.list_stale'>; detail: string };
}

/** A credential issued under a DID (no certificate chain): is that DID listed for this credential type? */
export interface IssuerDidQuery {
  did: string;
  /** SD-JWT VC `vct` or W3C VC `type` values; empty when the credential names none. */
  credentialTypes: readonly string[];
}

/** Whether a list names the DID (a LoTE service digital identity, say), and if not why, when the list says so. */
export interface IssuerDidAnswer {
  listed: boolean;
  refusal?: IssuerAnchorAnswer['refusal'];
}

/**
 * Issuer roots that come from somewhere other than configured PEM: signed trusted lists
 * (`trustLists()` of @vp-authorizer/trust-lists implements it). Asked once per chain; the answer
 * is added to the configured PEM anchors for that chain only, so a root listed for one credential
 * type never vouches for another.
 */
export interface IssuerAnchorSource {
  issuerAnchors(query: IssuerAnchorQuery): Promise<IssuerAnchorAnswer>;
  /** DCQL `trusted_authorities` type `etsi_tl`: whether a list with one of these identifiers lists the chain's top or its issuer. */
  inTrustedList?(query: { top: Uint8Array; lists: readonly string[] }): boolean;
  /** Issuer DIDs the source lists (trusted-list entries whose digital identity is a DID), asked once per credential issued under a DID. */
  issuerDid?(query: IssuerDidQuery): Promise<IssuerDidAnswer>;
}

export const isIssuerAnchorSource = (value: unknown): value is IssuerAnchorSource => typeof (value as { issuerAnchors?: unknown } | null)?.issuerAnchors === 'function';

/**
 * The configured PEM anchors plus what `source` lists for this chain. A chain that cannot be
 * decoded gets the configured anchors only (the chain check then reports it).
 */
export async function anchorsForChain(
  configured: readonly string[],
  source: IssuerAnchorSource | undefined,
  x5c: readonly (string | Uint8Array)[],
  query: Omit<IssuerAnchorQuery, 'top'>,
): Promise<{ anchors: readonly string[]; refusal?: IssuerAnchorAnswer['refusal'] }> {
  if (!source || x5c.length === 0) return { anchors: configured };
  let top: Uint8Array;
  try {
    top = certificateDer(x5c[x5c.length - 1]!);
  } catch {
    return { anchors: configured };
  }
  const answer = await source.issuerAnchors({ ...query, top });
  return { anchors: answer.anchors.length === 0 ? configured : [...configured, ...answer.anchors], ...(answer.refusal ? { refusal: answer.refusal } : {}) };
}
