import { buildSignedList, createListSigner } from '@vp-authorizer/testing';
import { describe, expect, it } from 'vitest';
import { DEFAULT_XML_BOUNDS } from '../src/bounded-xml.js';
import { listedCertificate } from '../src/listed-certificate.js';
import { readTs119612 } from '../src/ts119612.js';

describe('XAdES signed properties', () => {
  it('accept a list whose SigningCertificateV2 names the signer', async () => {
    const signer = await createListSigner('XAdES signer');
    const list = buildSignedList({ territory: 'AA' }, signer, { xades: {} });
    expect(list.toString('utf8')).toContain('SigningCertificateV2');
    expect(readTs119612(list, [listedCertificate(signer.base64, 'signer')], DEFAULT_XML_BOUNDS, 'xades').territory).toBe('AA');
  });

  it('refuse a list whose SigningCertificateV2 names another certificate than the one that verified it', async () => {
    const signer = await createListSigner('XAdES signer');
    const other = await createListSigner('Someone else');
    const list = buildSignedList({ territory: 'AA' }, signer, { xades: { signingCertificate: other.der } });
    expect(() => readTs119612(list, [listedCertificate(signer.base64, 'signer')], DEFAULT_XML_BOUNDS, 'xades')).toThrow(expect.objectContaining({ code: 'trust_list.signature_invalid', message: expect.stringContaining('SigningCertificate') }));
  });
});
