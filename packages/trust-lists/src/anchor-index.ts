import type { ListedCertificate } from './listed-certificate.js';
import { isActiveStatus, statusAt } from './service-status.js';
import type { ListedService, TrustedListContent } from './trusted-list-content.js';

/** One certificate a list vouches with, for one service type. */
export interface IndexedAnchor {
  certificate: ListedCertificate;
  service: ListedService;
  /** The source that listed it (its configured location, or the pointer followed to it). */
  source: string;
}

/** One DID a list names as a service's digital identity, for one service type. */
export interface IndexedDid {
  did: string;
  service: ListedService;
  source: string;
}

/** The top of a presented chain as the index looks it up. */
export interface ChainTop {
  /** Its authorityKeyIdentifier (lower-case hex): the key of the anchor that issued it. */
  authorityKeyId?: string;
  /** Its own subjectKeyIdentifier (lower-case hex): finds the top itself when it is listed. */
  subjectKeyId?: string;
  /** Its issuer and subject names: the fallback when key identifiers are absent. */
  names: readonly string[];
}

/** Why a certificate found for the chain was not returned (reported in the refusal's detail). */
export interface AnchorMiss {
  source: string;
  serviceType: string;
  status?: string;
}

/**
 * Every anchor of every loaded list, keyed by subject key identifier: the key the top of a
 * presented chain names in its authority key identifier (or its own, when the listed certificate
 * is that top). Subject names are the fallback: for a top without an authority key identifier, and
 * for listed certificates without a subject key identifier. One or two map lookups per decision,
 * whatever the number of listed anchors; certificates that share a key or a name (reissued,
 * several IACAs of one authority) come back together and path validation tells them apart by
 * signature. Immutable: a refresh builds a new index and swaps it in.
 */
export class AnchorIndex {
  private readonly byKeyId = new Map<string, IndexedAnchor[]>();
  private readonly bySubject = new Map<string, IndexedAnchor[]>();
  /** The anchors without a subject key identifier, by name: found by name even for a top that names its issuer's key. */
  private readonly bySubjectWithoutKeyId = new Map<string, IndexedAnchor[]>();
  /** DIDs the services name (LoTE `OtherIds`), keyed by the exact DID. */
  private readonly byDid = new Map<string, IndexedDid[]>();
  readonly size: number;

  constructor(lists: readonly { source: string; content: TrustedListContent }[]) {
    let size = 0;
    for (const { source, content } of lists) {
      for (const service of content.services) {
        for (const certificate of service.certificates) {
          const entry = { certificate, service, source };
          add(this.bySubject, certificate.subject, entry);
          if (certificate.subjectKeyId !== undefined) add(this.byKeyId, certificate.subjectKeyId, entry);
          else add(this.bySubjectWithoutKeyId, certificate.subject, entry);
          size++;
        }
        for (const did of service.dids ?? []) add(this.byDid, did, { did, service, source });
      }
    }
    this.size = size;
  }

  /**
   * Anchors that may have issued `top` (or be it) whose service is of one of `serviceTypes` and
   * trusted at `at` (epoch ms). Misses say what was listed but not trusted.
   */
  find(top: ChainTop, serviceTypes: ReadonlySet<string>, at: number): { anchors: IndexedAnchor[]; misses: AnchorMiss[] } {
    const anchors: IndexedAnchor[] = [];
    const misses: AnchorMiss[] = [];
    this.candidates(top, (entry) => judge(entry, serviceTypes, at, anchors, misses));
    return { anchors, misses };
  }

  /** The services naming exactly `did`, of one of `serviceTypes` and trusted at `at` (epoch ms); misses as for {@link find}. */
  findDid(did: string, serviceTypes: ReadonlySet<string>, at: number): { entries: IndexedDid[]; misses: AnchorMiss[] } {
    const entries: IndexedDid[] = [];
    const misses: AnchorMiss[] = [];
    for (const entry of this.byDid.get(did) ?? []) judge(entry, serviceTypes, at, entries, misses);
    return { entries, misses };
  }

  /** Whether an anchor that may have issued `top` (or be it) is listed by `source` and trusted at `at` (DCQL `trusted_authorities` of type `etsi_tl`). */
  listedBy(top: ChainTop, sources: ReadonlySet<string>, at: number): boolean {
    let listed = false;
    this.candidates(top, (entry) => {
      const status = statusAt(entry.service.statuses, at);
      listed ||= sources.has(entry.source) && status !== undefined && isActiveStatus(status.status);
    });
    return listed;
  }

  /**
   * Calls `visit` once per anchor that may have issued `top` or be it. By key identifier when the
   * top names its issuer's key: anchors with that subject key identifier, or with the top's own;
   * by name only those without one. Without an authority key identifier, or when it names no
   * listed key (an issuer whose identifier was derived another way), by name alone: path
   * validation decides either way.
   */
  private candidates(top: ChainTop, visit: (entry: IndexedAnchor) => void): void {
    let byName = this.bySubject;
    if (top.authorityKeyId !== undefined) {
      const byAuthority = this.byKeyId.get(top.authorityKeyId);
      const bySelf = top.subjectKeyId !== undefined && top.subjectKeyId !== top.authorityKeyId ? this.byKeyId.get(top.subjectKeyId) : undefined;
      if (byAuthority || bySelf) {
        for (const entry of byAuthority ?? []) visit(entry);
        for (const entry of bySelf ?? []) visit(entry);
        byName = this.bySubjectWithoutKeyId;
        if (byName.size === 0) return;
      }
    }
    const { names } = top;
    for (let i = 0; i < names.length; i++) {
      // The issuer and subject of a self-signed top are one name: look it up once.
      if (names.indexOf(names[i]!) !== i) continue;
      for (const entry of byName.get(names[i]!) ?? []) visit(entry);
    }
  }
}

function add<T>(map: Map<string, T[]>, key: string, entry: T): void {
  const entries = map.get(key);
  if (entries) entries.push(entry);
  else map.set(key, [entry]);
}

/** Keeps `entry` when its service is of a wanted type and trusted at `at`; otherwise records why not. */
function judge<T extends { service: ListedService; source: string }>(entry: T, serviceTypes: ReadonlySet<string>, at: number, kept: T[], misses: AnchorMiss[]): void {
  const { service } = entry;
  const status = statusAt(service.statuses, at);
  if (serviceTypes.has(service.serviceType) && status && isActiveStatus(status.status)) kept.push(entry);
  else misses.push({ source: entry.source, serviceType: service.serviceType, ...(status ? { status: status.status } : {}) });
}
