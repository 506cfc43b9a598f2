import { describe, expect, it } from 'vitest';
import { DEFAULT_XML_BOUNDS } from '../src/bounded-xml.js';
import { listedCertificate } from '../src/listed-certificate.js';
import { TrustListError } from '../src/trust-list-error.js';
import { readTs119612 } from '../src/ts119612.js';
import { sharedTestdata as testdata } from './__fixtures__/shared-testdata.js';

const lotl = testdata('eu-lotl.xml');
const tampered = testdata('eu-lotl-tampered.xml');

/**
 * The certificate the Commission signed sequence 386 with, taken from the list's own KeyInfo. An
 * operator configures the LoTL signer certificates the Official Journal publishes instead; this
 * test asserts that the one in KeyInfo is accepted once configured.
 */
const commissionSigner = (() => {
  const match = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(lotl.toString('utf8'));
  return listedCertificate(match![1]!, 'LoTL KeyInfo');
})();

describe('the EU List of Trusted Lists', () => {
  it('verifies under the Commission signer and yields its 43 pointers with their allowed signers', () => {
    const list = readTs119612(lotl, [commissionSigner], DEFAULT_XML_BOUNDS, 'eu-lotl');
    expect(list.listType).toBe('http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists');
    expect(list.sequence).toBe(386);
    expect(list.territory).toBe('EU');
    expect(new Date(list.nextUpdate!).toISOString()).toBe('2026-10-21T13:10:30.000Z');
    expect(list.pointers).toHaveLength(43);
    expect(list.pointers.filter((p) => p.mimeType === 'application/vnd.etsi.tsl+xml')).toHaveLength(32);
    expect(new Set(list.pointers.map((p) => p.territory)).size).toBe(32);
    expect(list.pointers.every((p) => p.signers.length > 0)).toBe(true);
    const germany = list.pointers.find((p) => p.territory === 'DE' && p.mimeType === 'application/vnd.etsi.tsl+xml');
    expect(germany?.location).toMatch(/^https:\/\//);
    expect(list.signer.sha256).toBe(commissionSigner.sha256);
  });

  it('refuses the copy whose DE pointer was changed after signing', () => {
    const error = (() => {
      try {
        readTs119612(tampered, [commissionSigner], DEFAULT_XML_BOUNDS, 'eu-lotl-tampered');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TrustListError);
    expect((error as TrustListError).code).toBe('trust_list.signature_invalid');
  });

  it('refuses the genuine list when its signer is not a configured one', () => {
    const other = list0Pointer();
    expect(() => readTs119612(lotl, [other], DEFAULT_XML_BOUNDS, 'eu-lotl')).toThrow(expect.objectContaining({ code: 'trust_list.unknown_signer' }));
  });
});

// Some certificate other than the Commission signer: the first one a national pointer lists.
function list0Pointer() {
  const text = lotl.toString('utf8');
  const all = [...text.matchAll(/<X509Certificate>([^<]+)<\/X509Certificate>/g)].map((m) => listedCertificate(m[1]!, 'pointer'));
  return all.find((c) => c.sha256 !== commissionSigner.sha256)!;
}
