import { LOTE_LISTED } from './lote.js';
import type { StatusPeriod } from './trusted-list-content.js';
import { VICAL_LISTED } from './vical.js';

/**
 * Statuses under which a listed service is trusted: TS 119 612 v5 `granted` and
 * `recognisedatnationallevel`, the v3/v4 statuses that meant the same (`undersupervision`,
 * `accredited`, `setbynationallaw`), TS 119 602 `notified`, and being listed at all in a VICAL or
 * in a LoTE that gives no status. Everything else (`withdrawn`, `deprecatedatnationallevel`,
 * `supervisionincessation`, an unknown URI) is not trusted: unknown fails closed.
 */
const ACTIVE_SEGMENTS = new Set(['granted', 'recognisedatnationallevel', 'undersupervision', 'accredited', 'setbynationallaw', 'notified']);

export function isActiveStatus(status: string): boolean {
  if (status === VICAL_LISTED || status === LOTE_LISTED) return true;
  if (!status.startsWith('http://uri.etsi.org/')) return false;
  const segment = status.slice(status.lastIndexOf('/') + 1).toLowerCase();
  return ACTIVE_SEGMENTS.has(segment);
}

/** The status in force at `at` (epoch ms): the latest period that started at or before it; undefined before the first. */
export function statusAt(statuses: readonly StatusPeriod[], at: number): StatusPeriod | undefined {
  let found: StatusPeriod | undefined;
  for (const period of statuses) {
    if (period.from <= at) found = period;
    else break;
  }
  return found;
}
