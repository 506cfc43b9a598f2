import type { ListedCertificate } from './listed-certificate.js';
import { isActiveStatus, statusAt } from './service-status.js';
import type { ListedService, StatusPeriod, TrustedListContent } from './trusted-list-content.js';

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
 * for listed certificates without a subject key identifier. A few map lookups per decision,
 * whatever the number of listed anchors; certificates that share a key (reissued) come back
 * together and path validation tells them apart by signature; certificates that share only a name
 * (several IACAs of one authority, another list's namesake) are told apart by the key identifier.
 * Immutable: a refresh builds a new index and swaps it in.
 */
export class AnchorIndex {
  private readonly byKeyId = new Map<string, AnchorEntry[]>();
  private readonly bySubject = new Map<string, AnchorEntry[]>();
  /** The anchors without a subject key identifier, by name: found by name even for a top that names its issuer's key. */
  private readonly bySubjectWithoutKeyId = new Map<string, AnchorEntry[]>();
  /** DIDs the services name (LoTE `OtherIds`), keyed by the exact DID. */
  private readonly byDid = new Map<string, DidEntry[]>();
  readonly size: number;

  constructor(lists: readonly { source: string; content: TrustedListContent }[]) {
    let size = 0;
    // One string per service type: a decision compares it without reaching into far copies.
    const serviceTypes = new Map<string, string>();
    for (const { source, content } of lists) {
      for (const service of content.services) {
        let serviceType = serviceTypes.get(service.serviceType);
        if (serviceType === undefined) serviceTypes.set(service.serviceType, (serviceType = service.serviceType));
        const { since, status, trusted } = currentStatus(service.statuses);
        for (const certificate of service.certificates) {
          const entry: AnchorEntry = { certificate, service, source, serviceType, since, status, trusted };
          add(this.bySubject, certificate.subject, entry);
          if (certificate.subjectKeyId !== undefined) add(this.byKeyId, certificate.subjectKeyId, entry);
          else add(this.bySubjectWithoutKeyId, certificate.subject, entry);
          size++;
        }
        for (const did of service.dids ?? []) add(this.byDid, did, { did, service, source, serviceType, since, status, trusted });
      }
    }
    this.size = size;
  }

  /**
   * Anchors that may have issued `top` (or be it) whose service is of one of `serviceTypes` and
   * trusted at `at` (epoch ms). Misses say what was listed but not trusted.
   */
  find(top: ChainTop, serviceTypes: ReadonlySet<string>, at: number): { anchors: IndexedAnchor[]; misses: AnchorMiss[] } {
    const anchors: AnchorEntry[] = [];
    const misses: AnchorMiss[] = [];
    this.candidates(top, (entry) => judge(entry, serviceTypes, at, anchors, misses));
    return { anchors, misses };
  }

  /** The services naming exactly `did`, of one of `serviceTypes` and trusted at `at` (epoch ms); misses as for {@link find}. */
  findDid(did: string, serviceTypes: ReadonlySet<string>, at: number): { entries: IndexedDid[]; misses: AnchorMiss[] } {
    const entries: DidEntry[] = [];
    const misses: AnchorMiss[] = [];
    for (const entry of this.byDid.get(did) ?? []) judge(entry, serviceTypes, at, entries, misses);
    return { entries, misses };
  }

  /**
   * Whether a certificate listed by one of `sources`, trusted at `at`, is `top` or issued it (DCQL
   * `trusted_authorities` of type `etsi_tl`): `isOrIssued` decides that by DER or signature.
   */
  listedBy(top: ChainTop, sources: ReadonlySet<string>, at: number, isOrIssued: (certificate: ListedCertificate) => boolean): boolean {
    let listed = false;
    this.candidates(top, (entry) => {
      // A shared name or key identifier is only a hint: the listed certificate must be the top or have signed it.
      listed ||= sources.has(entry.source) && statusOf(entry, at).trusted && isOrIssued(entry.certificate);
    });
    return listed;
  }

  /**
   * Calls `visit` once per anchor that may have issued `top` or be it. By key identifier when the
   * top names its issuer's key: anchors with that subject key identifier, or with the top's own;
   * by name only those without one, because path validation (OpenSSL's issuer check) refuses an
   * anchor whose subject key identifier differs from the one the top names: a namesake listed
   * under another identifier could never vouch here, and would only add work per decision (a list
   * may hold thousands) and hide why the anchor found by key was refused (withdrawn, stale).
   * Without an authority key identifier, or when it names no listed key, by name alone: path
   * validation decides either way.
   */
  private candidates(top: ChainTop, visit: (entry: AnchorEntry) => void): void {
    let byName = this.bySubject;
    const { authorityKeyId, names } = top;
    if (authorityKeyId !== undefined) {
      const byAuthority = this.byKeyId.get(authorityKeyId);
      const bySelf = top.subjectKeyId !== undefined && top.subjectKeyId !== authorityKeyId ? this.byKeyId.get(top.subjectKeyId) : undefined;
      if (byAuthority || bySelf) {
        for (const entry of byAuthority ?? []) visit(entry);
        for (const entry of bySelf ?? []) visit(entry);
        byName = this.bySubjectWithoutKeyId;
        if (byName.size === 0) return;
      }
    }
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

/**
 * What a decision reads, copied into each index entry when the index is built so that a decision
 * touches the entry alone (not the service, its statuses array and a status object, each elsewhere
 * in memory): the service type, and the service's latest status with whether it is trusted. Older
 * periods are read from the service only for a time before the latest one started.
 */
interface Judged {
  service: ListedService;
  source: string;
  serviceType: string;
  /** When the latest status started (epoch ms); Infinity for a service without a status. */
  since: number;
  status: string | undefined;
  trusted: boolean;
}

type AnchorEntry = IndexedAnchor & Judged;

type DidEntry = IndexedDid & Judged;

function currentStatus(statuses: readonly StatusPeriod[]): Pick<Judged, 'since' | 'status' | 'trusted'> {
  const latest = statuses.at(-1);
  return latest ? { since: latest.from, status: latest.status, trusted: isActiveStatus(latest.status) } : { since: Infinity, status: undefined, trusted: false };
}

/** The status in force at `at` and whether it is trusted. */
function statusOf(entry: Judged, at: number): { status: string | undefined; trusted: boolean } {
  if (at >= entry.since) return entry;
  const status = statusAt(entry.service.statuses, at)?.status;
  return { status, trusted: status !== undefined && isActiveStatus(status) };
}

/** Keeps `entry` when its service is of a wanted type and trusted at `at`; otherwise records why not. */
function judge<T extends Judged>(entry: T, serviceTypes: ReadonlySet<string>, at: number, kept: T[], misses: AnchorMiss[]): void {
  const { status, trusted } = statusOf(entry, at);
  if (trusted && serviceTypes.has(entry.serviceType)) kept.push(entry);
  else misses.push({ source: entry.source, serviceType: entry.serviceType, ...(status !== undefined ? { status } : {}) });
}
