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
      for (const entry of entries) {
        const { service } = entry;
        const status = statusAt(service.statuses, at);
        if (serviceTypes.has(service.serviceType) && status && isActiveStatus(status.status)) anchors.push(entry);
        else misses.push({ source: entry.source, serviceType: service.serviceType, ...(status ? { status: status.status } : {}) });
      }
    }
    return { anchors, misses };
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
