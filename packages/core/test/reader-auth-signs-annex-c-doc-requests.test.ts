// The readerAuth instance option: checked at construction (the reader certificate profile included),
// then every DocRequest of an org-iso-mdoc request carries a readerAuth that verifies over the
// SessionTranscript of the request's one origin, signed through the identity's RequestSigner.
import { Decoder, type Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { createAuthorizer, createKeySigner, passThroughValidator, passThroughVerifier, type ReaderAuthOption, type RequestSigner, type SigningInput } from '@vp-authorizer/core';
import { sessionTranscriptBytes, verifyReaderAuth } from '@vp-authorizer/core/formats';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { configIssuesOf } from './__fixtures__/config-issues.js';

const ORIGIN = 'https://rp.example';
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const mdl = (id: string, element: string) => ({ id, format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', element] }] });
const annexC = (expectedOrigins: string[] = [ORIGIN], protocols: string[] = ['org-iso-mdoc']) => ({
  responseMode: 'dc_api',
  protocols,
  expectedOrigins,
  query: { type: 'DCQL', dcql: { credentials: [mdl('a', 'age_over_18'), mdl('b', 'family_name')] } },
});

const build = (signing: unknown, readerAuth: unknown) =>
  createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'main', apiKeys: ['k-1234567890'], signing: signing as SigningInput, readerAuth: readerAuth as ReaderAuthOption, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });


interface Created {
  digitalCredentialGetRequests: { protocol: string; data: { deviceRequest: string; encryptionInfo: string } }[];
}

/** Each DocRequest's readerAuth, checked as a wallet on `origin` checks it. */
async function readerAuthsOf(authorizer: ReturnType<typeof build>, body: unknown, origin = ORIGIN) {
  const created = (await authorizer.createAuthorization('main', body as never)) as unknown as Created;
  const annex = created.digitalCredentialGetRequests.find((r) => r.protocol === 'org-iso-mdoc')!;
  const transcript = sessionTranscriptBytes({ kind: 'annex_c', origin, encryptionInfo: annex.data.encryptionInfo });
  const request = decoder.decode(Buffer.from(annex.data.deviceRequest, 'base64url')) as Map<string, unknown>;
  return (request.get('docRequests') as Map<string, unknown>[]).map((docRequest) => ({
    header: Buffer.from((docRequest.get('readerAuth') as unknown[] | undefined)?.[0] as Uint8Array ?? []).toString('hex'),
    result: verifyReaderAuth(docRequest.get('readerAuth'), transcript, (docRequest.get('itemsRequest') as Tag).value as Uint8Array),
  }));
}

describe('readerAuth on org-iso-mdoc DocRequests', () => {
  it('readerAuth: true signs every DocRequest with the primary identity (ES256, -7), verifiable over the SessionTranscript of the request\'s origin only', async () => {
    const dev = await generateDevSigningKey({ readerAuth: true });
    const authorizer = build(dev.signing, true);
    try {
      const checked = await readerAuthsOf(authorizer, annexC());
      expect(checked).toHaveLength(2);
      for (const { header, result } of checked) {
        expect(header).toBe('a10126');
        expect(result).toMatchObject({ valid: true, alg: 'ES256' });
        if (result.valid) expect(result.leaf.toString()).toBe(new (await import('node:crypto')).X509Certificate(dev.leafCertificatePem).toString());
      }
      expect((await readerAuthsOf(authorizer, annexC(), 'https://evil.example')).map((c) => c.result.valid)).toEqual([false, false]);
    } finally {
      await authorizer.close();
    }
  });

  it('a dedicated reader identity behind a RequestSigner signs (one call per DocRequest), ESP256 on request; the request-signing identity needs no reader EKU then', async () => {
    const request = await generateDevSigningKey();
    const reader = await generateDevSigningKey({ readerAuth: true, commonName: 'reader' });
    const inner = createKeySigner({ privateKey: reader.signing.privateKey, certificateChain: reader.signing.certificateChain });
    let calls = 0;
    // A signer that is not in this process (no synchronous path): what a PKCS#11 token looks like.
    const signer: RequestSigner = { alg: 'ES256', certificateChain: reader.signing.certificateChain, sign: async (data) => (calls++, inner.sign(data)) };
    const authorizer = build(request.signing, { identity: { signer }, alg: 'ESP256' });
    try {
      const checked = await readerAuthsOf(authorizer, annexC([ORIGIN], ['openid4vp-v1-signed', 'org-iso-mdoc']));
      expect(checked.map((c) => [c.header, c.result.valid && c.result.leaf.subject])).toEqual([['a10128', 'CN=reader'], ['a10128', 'CN=reader']]);
      expect(calls).toBe(1 + 2); // the load-time probe, then one signature per DocRequest
    } finally {
      await authorizer.close();
    }
  });

  it('refuses at construction a reader certificate without the mdoc reader EKU, naming the certificate and the fix', async () => {
    const plain = await generateDevSigningKey();
    expect(configIssuesOf(() => build(plain.signing, true))).toEqual([
      expect.stringMatching(/^instances\.0\.signing\.certificateChain\.0: the leaf certificate of instances\.0\.signing, which readerAuth signs with, lacks the mdoc reader authentication extended key usage 1\.0\.18013\.5\.1\.6 .*generateDevSigningKey\(\{ readerAuth: true \}\).*or leave readerAuth out$/),
    ]);
    const reader = await generateDevSigningKey({ readerAuth: true });
    expect(configIssuesOf(() => build(reader.signing, { identity: { privateKey: plain.signing.privateKey, certificateChain: plain.signing.certificateChain } }))).toEqual([
      expect.stringMatching(/^instances\.0\.readerAuth\.identity\.certificateChain\.0: the reader certificate lacks the mdoc reader authentication extended key usage/),
    ]);
    expect(configIssuesOf(() => build(reader.signing, { identity: { privateKey: plain.signing.privateKey, certificateChain: reader.signing.certificateChain } }))).toEqual([
      'instances.0.readerAuth.identity.privateKey: does not match the public key of the leaf certificate (certificateChain[0])',
    ]);
    expect(configIssuesOf(() => build(reader.signing, { alg: 'ES384' }))).toEqual(['instances.0.readerAuth.alg: must be "ES256" (COSE -7) or "ESP256" (COSE -9)']);
    expect(configIssuesOf(() => build(reader.signing, { identity: { ...reader.signing } }))).toEqual([
      'instances.0.readerAuth.identity: has unknown member(s) trustAnchor; a reader identity is { privateKey, certificateChain } or { signer, timeoutMs? }',
    ]);
    expect(configIssuesOf(() => build(reader.signing, 'yes'))).toEqual(['instances.0.readerAuth: readerAuth must be true or { identity?, alg? }']);
  });

  it('a request that may be answered from several origins cannot be signed for one: 400 request.reader_auth_needs_one_origin; OpenID4VP-only requests are unaffected', async () => {
    const dev = await generateDevSigningKey({ readerAuth: true });
    const authorizer = build(dev.signing, true);
    try {
      await expect(authorizer.createAuthorization('main', annexC([ORIGIN, 'https://shop.example']) as never)).rejects.toMatchObject({
        code: 'request.reader_auth_needs_one_origin',
        errors: [{ pointer: '/expectedOrigins', detail: expect.stringContaining('exactly one expectedOrigins') }],
      });
      const openId4vp = await authorizer.createAuthorization('main', { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: [ORIGIN, 'https://shop.example'], query: annexC().query } as never);
      expect(openId4vp).toHaveProperty('authorizationId');
    } finally {
      await authorizer.close();
    }
  });
});
