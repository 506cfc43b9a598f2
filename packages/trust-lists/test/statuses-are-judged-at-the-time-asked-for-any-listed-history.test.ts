import { X509Certificate } from 'node:crypto';
import { buildSignedList, createListSigner, createTestCa, GRANTED, WITHDRAWN, type TestCa } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnchorIndex, type ChainTop } from '../src/anchor-index.js';
import { DEFAULT_XML_BOUNDS } from '../src/bounded-xml.js';
import { keyIdentifiers } from '../src/key-identifiers.js';
import { certificatesFromPem, listedCertificate } from '../src/listed-certificate.js';
import { LOTE_LISTED } from '../src/lote.js';
import { isActiveStatus, statusAt } from '../src/service-status.js';
import type { StatusPeriod, TrustedListContent } from '../src/trusted-list-content.js';
import { readTs119612 } from '../src/ts119612.js';

// The index judges a service's latest status when it is built and reads older periods only for an
// earlier time; whatever history a list gives (out of order, equal starting times, withdrawn then
// granted again, a LoTE entry without a status), a decision must answer what statusAt over the
// service's periods answers. Histories are drawn from a seeded generator, so a failure reproduces.

const SVC = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/';
const STATUSES = [GRANTED, WITHDRAWN, `${SVC}recognisedatnationallevel`, `${SVC}deprecatedatnationallevel`, 'http://example.test/unknown'];
// Few distinct starting times (whole seconds, as lists write them), so that ties are common.
const T0 = Date.parse('2024-01-01T00:00:00Z');
const TIMES = Array.from({ length: 5 }, (_, i) => T0 + i * 86_400_000);

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}
const pick = <T>(next: () => number, from: readonly T[]): T => from[Math.floor(next() * from.length)]!;
/** The times a decision may ask about: each starting time, just before and after it, and far outside. */
const ASKED = [Number.NEGATIVE_INFINITY, T0 - 1, ...TIMES.flatMap((t) => [t - 1, t, t + 1]), T0 + 365 * 86_400_000, Number.MAX_SAFE_INTEGER];

let ca: TestCa;
let top: ChainTop;
beforeAll(async () => {
  ca = await createTestCa('CN=History CA');
  const cert = new X509Certificate(Buffer.from(ca.der));
  top = { ...keyIdentifiers(ca.der), names: [cert.issuer, cert.subject] };
});

/** Every service of `content` (one certificate, its own service type) judged at each asked time, against statusAt. */
function expectDecisionsMatchStatusAt(content: TrustedListContent): void {
  const index = new AnchorIndex([{ source: 'list', content }]);
  const types = new Set(content.services.map((s) => s.serviceType));
  expect(types.size).toBe(content.services.length);
  for (const at of ASKED) {
    const { anchors, misses } = index.find(top, types, at);
    const kept = new Set(anchors.map((a) => a.service.serviceType));
    const missed = new Map(misses.map((m) => [m.serviceType, m]));
    expect(kept.size + missed.size).toBe(content.services.length);
    for (const service of content.services) {
      const expected = statusAt(service.statuses, at);
      const trusted = expected !== undefined && isActiveStatus(expected.status);
      expect({ at, history: service.statuses, kept: kept.has(service.serviceType) }).toEqual({ at, history: service.statuses, kept: trusted });
      if (!trusted) expect(missed.get(service.serviceType)?.status).toBe(expected?.status);
    }
  }
}

describe('a decision over a listed status history', () => {
  it('answers as statusAt for TS 119 612 histories the parser reads (unordered, equal times, regranted)', async () => {
    const signer = await createListSigner('History list signer');
    const next = random(119_612);
    const services = Array.from({ length: 400 }, (_, i) => ({
      type: `urn:test:service:${i}`,
      status: pick(next, STATUSES),
      since: new Date(pick(next, TIMES)),
      certificates: [ca.x5c],
      history: Array.from({ length: Math.floor(next() * 5) }, () => ({ status: pick(next, STATUSES), since: new Date(pick(next, TIMES)) })),
    }));
    const content = readTs119612(buildSignedList({ services }, signer), certificatesFromPem(signer.pem, 'signer'), DEFAULT_XML_BOUNDS, 'history list');
    // The draw covers what it is meant to: ties, regranting and histories listed out of order.
    const statuses = content.services.map((s) => s.statuses);
    expect(statuses.some((h) => h.some((p, j) => j > 0 && p.from === h[j - 1]!.from))).toBe(true);
    expect(statuses.some((h) => h.length >= 3 && isActiveStatus(h.at(-1)!.status) && h.some((p) => !isActiveStatus(p.status)))).toBe(true);
    expect(services.some((s) => s.history.some((h, j) => j > 0 && h.since < s.history[j - 1]!.since))).toBe(true);
    expectDecisionsMatchStatusAt(content);
  });

  it('answers as statusAt for LoTE histories (a current status or none) and VICAL entries', () => {
    const next = random(119_602);
    const certificate = listedCertificate(ca.der, 'ca');
    const period = (): StatusPeriod => ({ status: pick(next, STATUSES), from: pick(next, TIMES) });
    const services = Array.from({ length: 400 }, (_, i) => {
      // As lote.ts builds them: history plus the current status (LOTE_LISTED from -Infinity when the entry gives none), oldest first.
      const current = next() < 0.3 ? { status: LOTE_LISTED, from: Number.NEGATIVE_INFINITY } : period();
      const history = Array.from({ length: Math.floor(next() * 5) }, period);
      // As vical.ts builds them: one period from the certificate's notBefore.
      const statuses = next() < 0.2 ? [{ status: 'urn:vp-authorizer:vical:listed', from: pick(next, TIMES) }] : [...history, current].sort((a, b) => a.from - b.from);
      return { serviceType: `urn:test:service:${i}`, provider: 'p', name: 'n', certificates: [certificate], statuses };
    });
    expectDecisionsMatchStatusAt({ kind: 'lote', listType: 'test', issuedAt: T0, services, pointers: [], signer: certificate });
  });
});
