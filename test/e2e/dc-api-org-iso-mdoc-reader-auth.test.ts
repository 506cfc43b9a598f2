import { createTestWallet, type AnnexCGetRequest } from '@vp-authorizer/testing';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { Decoder, Encoder, Tag } from 'cbor-x';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_ELEMENTS, MDL_NS, mdlQuery, startE2eEnvironment } from './e2e-harness.js';

// org-iso-mdoc requests signed with readerAuth (ISO/IEC 18013-5 9.1.4) by an instance whose
// signing certificate is an mdoc reader certificate, answered over HTTP by a test wallet that
// checks readerAuth as a wallet requiring reader authentication does.
const ORIGIN = 'https://rp.example';
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment({ readerAuth: true });
});
afterAll(async () => env.close());

async function wallet() {
  const w = await createTestWallet();
  await w.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
  return w;
}

const create = async () => (await env.rp.create({ responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } })) as unknown as {
  authorizationId: string;
  digitalCredentialGetRequest: AnnexCGetRequest;
};

describe('org-iso-mdoc requests with readerAuth', () => {
  it('a wallet that requires reader authentication and trusts the instance\'s reader CA checks readerAuth, answers, and the authorization is authorized', async () => {
    const created = await create();
    const strict = { origin: ORIGIN, requireReaderAuth: true, readerTrustAnchors: [env.verifierRootPem] };
    const answer = await (await wallet()).respondAnnexC(created.digitalCredentialGetRequest, strict);
    expect(answer.readerCertificates).toHaveLength(1);
    expect(answer.readerCertificates[0]).toContain('-----BEGIN CERTIFICATE-----');
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse: answer.digitalCredentialGetResponse });
    expect(posted).toEqual({ status: 200, body: { status: 'authorized' } });
  });

  it('the wallet refuses the request when the page is on another origin than the one readerAuth was signed for', async () => {
    const created = await create();
    await expect((await wallet()).respondAnnexC(created.digitalCredentialGetRequest, { origin: 'https://evil.example' })).rejects.toThrow(/readerAuth of DocRequest 0 \(org\.iso\.18013\.5\.1\.mDL\) is refused: .*does not verify/);
  });

  it('the wallet refuses a DeviceRequest whose ItemsRequest was changed after signing (one more element asked for)', async () => {
    const created = await create();
    const request = decoder.decode(Buffer.from(created.digitalCredentialGetRequest.data.deviceRequest, 'base64url')) as Map<string, unknown>;
    const docRequest = (request.get('docRequests') as Map<string, unknown>[])[0]!;
    const items = decoder.decode((docRequest.get('itemsRequest') as Tag).value as Uint8Array) as Map<string, Map<string, Map<string, boolean>>>;
    items.get('nameSpaces')!.get(MDL_NS)!.set('document_number', false);
    docRequest.set('itemsRequest', new Tag(new Uint8Array(encoder.encode(items)), 24));
    const tampered: AnnexCGetRequest = { protocol: 'org-iso-mdoc', data: { ...created.digitalCredentialGetRequest.data, deviceRequest: Buffer.from(encoder.encode(request)).toString('base64url') } };
    await expect((await wallet()).respondAnnexC(tampered, { origin: ORIGIN })).rejects.toThrow(/readerAuth of DocRequest 0 .* is refused/);
  });

  it('a wallet trusting another reader CA refuses the reader certificate', async () => {
    const created = await create();
    const otherCa = (await generateDevSigningKey()).rootCertificatePem;
    await expect((await wallet()).respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN, readerTrustAnchors: [otherCa] })).rejects.toThrow(/is not issued by a trusted reader CA/);
  });
});

describe('org-iso-mdoc requests without readerAuth', () => {
  let plain: E2eEnvironment;
  beforeAll(async () => {
    plain = await startE2eEnvironment();
  });
  afterAll(async () => plain.close());

  it('carry none: a wallet that requires reader authentication refuses them, one that does not answers', async () => {
    const created = (await plain.rp.create({ responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } })) as unknown as { digitalCredentialGetRequest: AnnexCGetRequest };
    const w = await createTestWallet();
    await w.addMdoc(plain.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    await expect(w.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN, requireReaderAuth: true })).rejects.toThrow(/carries no readerAuth/);
    expect((await w.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN })).readerCertificates).toEqual([undefined]);
  });
});
