import { X509Certificate } from 'node:crypto';
import { Decoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { listedCertificate } from '../src/listed-certificate.js';
import { readVical, vicalServiceType } from '../src/vical.js';
import { sharedTestdata } from './__fixtures__/shared-testdata.js';

const vical = sharedTestdata('aamva-vical.cbor');
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const chain = (decoder.decode(vical) as [Uint8Array, Map<number, Uint8Array[]>])[1].get(33)!;
/** AAMVA's DTS root, the top of the VICAL's own x5chain: what an operator configures as the VICAL signer. */
const aamvaRoot = listedCertificate(chain[chain.length - 1]!, 'AAMVA DTS Root CA');
// Between the VICAL's date (2025-08-05T20:47:21Z) and its nextUpdate, inside the signer's validity.
const issued = Date.parse('2025-08-06T00:00:00Z');

describe("AAMVA's test VICAL", () => {
  it('verifies under the AAMVA root and lists 13 IACAs for the mDL docType', () => {
    expect(new X509Certificate(aamvaRoot.der).subject).toContain('AAMVA DTS Root CA');
    const list = readVical(vical, [aamvaRoot], issued, 'aamva');
    expect(list.kind).toBe('vical');
    expect(list.listType).toBe('VICAL AAMVA');
    expect(list.sequence).toBe(89782);
    expect(new Date(list.nextUpdate!).toISOString()).toBe('2025-08-06T20:47:21.000Z');
    const mdl = list.services.filter((s) => s.serviceType === vicalServiceType('org.iso.18013.5.1.mDL'));
    expect(mdl).toHaveLength(13);
    expect(mdl.map((s) => s.certificates[0]!.subject).join('\n')).toContain('CN=IACA-UTAH-USA');
    // Three Arizona IACAs share one subject name: the index must keep all of them.
    expect(mdl.filter((s) => s.certificates[0]!.subject.includes('CN=MVMProdCA'))).toHaveLength(3);
  });

  it('accepts the intermediate or leaf of the chain as the configured signer too', () => {
    expect(readVical(vical, [listedCertificate(chain[1]!, 'issuing CA')], issued, 'aamva').services).toHaveLength(13);
  });

  it('refuses a copy with one payload byte changed', () => {
    const tampered = Buffer.from(vical);
    // A byte inside the last IACA certificate: CBOR stays well-formed, the signature must not.
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 200) ^ 0x01, tampered.length - 200);
    expect(() => readVical(tampered, [aamvaRoot], issued, 'aamva')).toThrow(expect.objectContaining({ code: 'trust_list.signature_invalid' }));
  });

  it('refuses the genuine VICAL when the configured signer is another authority', () => {
    const unrelated = listedCertificate(
      (decoder.decode(decoder.decode(vical)[2]) as Map<string, Map<string, Uint8Array>[]>).get('certificateInfos')![0]!.get('certificate')!,
      'an IACA',
    );
    expect(() => readVical(vical, [unrelated], issued, 'aamva')).toThrow(expect.objectContaining({ code: 'trust_list.unknown_signer' }));
  });

  it('refuses when the signing certificate has expired at the current time', () => {
    expect(() => readVical(vical, [aamvaRoot], Date.parse('2026-05-01T00:00:00Z'), 'aamva')).toThrow(expect.objectContaining({ code: 'trust_list.signature_invalid' }));
  });
});
