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

/** Why a certificate found under the name was not returned (reported in the refusal's detail). */
export interface AnchorMiss {
  source: string;
  serviceType: string;
  status?: string;
}

/**
 * Every anchor of every loaded list, keyed by certificate subject name: the name the top of a
 * presented chain gives as its issuer (or its own, when the listed certificate is the signer
 * itself). One map lookup per decision, whatever the number of listed anchors; certificates that
 * share a name (key rollover, several IACAs of one authority) come back together and path
 * validation tells them apart by signature. Immutable: a refresh builds a new index and swaps it in.
 */
export class AnchorIndex {
  private readonly bySubject = new Map<string, IndexedAnchor[]>();
  /** DIDs the services name (LoTE `OtherIds`), keyed by the exact DID. */
  private readonly byDid = new Map<string, IndexedDid[]>();
  readonly size: number;

  constructor(lists: readonly { source: string; content: TrustedListContent }[]) {
    let size = 0;
    for (const { source, content } of lists) {
      for (const service of content.services) {
        for (const certificate of service.certificates) {
          const entries = this.bySubject.get(certificate.subject) ?? [];
          entries.push({ certificate, service, source });
          this.bySubject.set(certificate.subject, entries);
          size++;
        }
        for (const did of service.dids ?? []) {
          const entries = this.byDid.get(did) ?? [];
          entries.push({ did, service, source });
          this.byDid.set(did, entries);
        }
      }
    }
    this.size = size;
  }

  /**
   * Anchors named `names` (the top certificate's issuer and subject) whose service is of one of
   * `serviceTypes` and trusted at `at` (epoch ms). Misses say what was listed but not trusted.
   */
  find(names: readonly string[], serviceTypes: ReadonlySet<string>, at: number): { anchors: IndexedAnchor[]; misses: AnchorMiss[] } {
    const anchors: IndexedAnchor[] = [];
    const misses: AnchorMiss[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      // The issuer and subject of a self-signed top are one name: look it up once.
      if (names.indexOf(name) !== i) continue;
      const entries = this.bySubject.get(name);
      if (entries === undefined) continue;
      for (const entry of entries) judge(entry, serviceTypes, at, anchors, misses);
    }
    return { anchors, misses };
  }

  /** The services naming exactly `did`, of one of `serviceTypes` and trusted at `at` (epoch ms); misses as for {@link find}. */
  findDid(did: string, serviceTypes: ReadonlySet<string>, at: number): { entries: IndexedDid[]; misses: AnchorMiss[] } {
    const entries: IndexedDid[] = [];
    const misses: AnchorMiss[] = [];
    for (const entry of this.byDid.get(did) ?? []) judge(entry, serviceTypes, at, entries, misses);
    return { entries, misses };
  }

  /** Whether any anchor of `names` is listed by `source` (DCQL `trusted_authorities` of type `etsi_tl`). */
  listedBy(names: readonly string[], sources: ReadonlySet<string>, at: number): boolean {
    return names.some((name) =>
      (this.bySubject.get(name) ?? []).some((entry) => {
        const status = statusAt(entry.service.statuses, at);
        return sources.has(entry.source) && status !== undefined && isActiveStatus(status.status);
      }),
    );
  }
}

/** Keeps `entry` when its service is of a wanted type and trusted at `at`; otherwise records why not. */
function judge<T extends { service: ListedService; source: string }>(entry: T, serviceTypes: ReadonlySet<string>, at: number, kept: T[], misses: AnchorMiss[]): void {
  const { service } = entry;
  const status = statusAt(service.statuses, at);
  if (serviceTypes.has(service.serviceType) && status && isActiveStatus(status.status)) kept.push(entry);
  else misses.push({ source: entry.source, serviceType: service.serviceType, ...(status ? { status: status.status } : {}) });
}
