import { describe, expect, it } from 'vitest';
import { DEFAULT_XML_BOUNDS, type XmlBounds } from '../src/bounded-xml.js';
import { listedCertificate } from '../src/listed-certificate.js';
import { readTs119612 } from '../src/ts119612.js';
import { buildSignedList, createListSigner, trustedListXml } from '@vp-authorizer/testing';

const read = (xml: string | Buffer, bounds: XmlBounds = DEFAULT_XML_BOUNDS) => () => readTs119612(typeof xml === 'string' ? Buffer.from(xml) : xml, [], bounds, 'bomb');
const listedCertificateOf = (base64: string) => listedCertificate(base64, 'signer');
const list = trustedListXml({});
const body = list.slice(list.indexOf('?>') + 2);

describe('hostile XML', () => {
  it('refuses entity expansion (billion laughs) before any parser runs', () => {
    const lol = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;
    const bomb = `<?xml version="1.0" encoding="UTF-8"?>${lol}${body.replace('Test scheme operator', '&lol9;')}`;
    expect(read(bomb)).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused' }));
  });

  it('refuses an external entity (XXE) the same way', () => {
    const xxe = `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body.replace('Test scheme operator', '&xxe;')}`;
    expect(read(xxe)).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused' }));
  });

  it('refuses a huge attribute value', () => {
    const huge = list.replace('Id="tsl"', `Id="tsl" junk="${'A'.repeat(1_000_000)}"`);
    expect(read(huge)).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused', message: expect.stringContaining('attribute') }));
  });

  it('refuses deep nesting', () => {
    const deep = list.replace('</SchemeInformation>', `${'<x>'.repeat(10_000)}${'</x>'.repeat(10_000)}</SchemeInformation>`);
    expect(read(deep)).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused', message: expect.stringContaining('deeper') }));
  });

  it('refuses too many nodes', () => {
    const wide = list.replace('</SchemeInformation>', `${'<x/>'.repeat(20_000)}</SchemeInformation>`);
    expect(read(wide, { ...DEFAULT_XML_BOUNDS, maxNodes: 10_000 })).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused' }));
  });

  it('refuses a document over the size limit without decoding it', () => {
    expect(read(Buffer.alloc(2_000_000, 0x20), { ...DEFAULT_XML_BOUNDS, maxBytes: 1_000_000 })).toThrow(expect.objectContaining({ code: 'trust_list.too_large' }));
  });

  it('refuses processing instructions, non-UTF-8 encodings and malformed XML', () => {
    expect(read(list.replace('<SchemeInformation>', '<?evil x?><SchemeInformation>'))).toThrow(expect.objectContaining({ code: 'trust_list.xml_refused' }));
    expect(read(list.replace('encoding="UTF-8"', 'encoding="UTF-16"'))).toThrow(expect.objectContaining({ code: 'trust_list.malformed' }));
    expect(read(list.replace('</SchemeInformation>', '</Nope>'))).toThrow(expect.objectContaining({ code: 'trust_list.malformed' }));
  });

  it('refuses a second, wrapped copy of the content beside the signed one (signature wrapping)', async () => {
    const signer = await createListSigner('wrap signer');
    const signed = buildSignedList({ territory: 'AA' }, signer).toString('utf8');
    // A second signature element: no way to tell which one covers what is read.
    const wrapped = signed.replace('</TrustServiceStatusList>', `${signed.slice(signed.indexOf('<ds:Signature'), signed.indexOf('</ds:Signature>') + 15)}</TrustServiceStatusList>`);
    expect(() => readTs119612(Buffer.from(wrapped), [listedCertificateOf(signer.base64)], DEFAULT_XML_BOUNDS, 'wrapped')).toThrow(expect.objectContaining({ code: 'trust_list.signature_invalid' }));
  });
});
