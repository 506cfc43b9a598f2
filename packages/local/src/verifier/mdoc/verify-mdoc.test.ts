import 'reflect-metadata';
import type { ParsedMdoc, PolicyResult, SessionTranscriptInput } from '@vp-authorizer/core';
import { ExtendedKeyUsageExtension } from '@peculiar/x509';
import { Tag } from 'cbor-x';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMdocFixture, MDL, type MdocFixture } from '../../__fixtures__/mdoc-issuer.js';
import { createTestCa, generateTestKeys, type TestCa } from '@vp-authorizer/testing';
import { CLIENT_ID, NONCE, RESPONSE_URI, signal, verifyInput } from '../../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';
import { decodeCbor, encodeCbor } from './mdoc-cbor.js';
import { sessionTranscriptBytes } from '@vp-authorizer/core/formats';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);
const redirect: SessionTranscriptInput = { kind: 'redirect', clientId: CLIENT_ID, nonce: NONCE, responseUri: RESPONSE_URI, jwkThumbprint: null };

function mdocPresentation(raw: string): ParsedMdoc {
  return { kind: 'mdoc', path: ['mdl', 0], queryId: 'mdl', index: 0, format: 'mso_mdoc', raw, version: '1.0', status: 0, documents: [] };
}

/** Decodes the DeviceResponse, lets `edit` change it, re-encodes (tag 24 items stay as received unless edited). */
function rewrite(raw: string, edit: (response: Map<string, unknown>) => void): string {
  const response = decodeCbor(Buffer.from(raw, 'base64url')) as Map<string, unknown>;
  edit(response);
  return Buffer.from(encodeCbor(response)).toString('base64url');
}
const firstDoc = (response: Map<string, unknown>) => (response.get('documents') as Map<string, unknown>[])[0]!;
/** The protected `alg` (label 1) of the COSE_Sign1 that `pick` selects in the first document. */
function coseAlgOf(raw: string, pick: (doc: Map<string, unknown>) => unknown): unknown {
  const sign1 = pick(firstDoc(decodeCbor(Buffer.from(raw, 'base64url')) as Map<string, unknown>));
  const array = (sign1 instanceof Tag ? sign1.value : sign1) as Uint8Array[];
  return (decodeCbor(array[0]!) as Map<number, unknown>).get(1);
}

let ca: TestCa;
let fx: MdocFixture;
let verifier: ReturnType<typeof localVerifier>;

beforeAll(async () => {
  ca = await createTestCa('CN=Test IACA,C=DE');
  fx = await createMdocFixture(ca);
  verifier = localVerifier({ trustAnchors: [ca.pem] });
});

const verify = (raw: string, overrides: Parameters<typeof verifyInput>[1] = {}, v = verifier) => v.verify(verifyInput([mdocPresentation(raw)], overrides), { signal: signal() });

describe('localVerifier: mdoc', () => {
  it('accepts a valid DeviceResponse signed over the redirect SessionTranscript', async () => {
    const results = await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) }));
    expect(errorsOf(results)).toEqual([]);
    expect(results.map((r) => `${r.path.join('/')}:${r.policy}`)).toEqual(['mdl/0/0:proof', 'mdl/0/0:notBefore', 'mdl/0/0:notAfter', 'mdl/0/0:holderBinding', 'mdl/0/0:status']);
    expect(results[0]!.data).toMatchObject({ docType: MDL, alg: 'ES256', x5cSubject: expect.stringContaining('mDL Document Signer'), issuerSignedElements: 2 });
    expect(results[3]!.data).toMatchObject({ method: 'deviceSignature' });
  });

  it('accepts a DC API SessionTranscript and rejects it when the flow was a redirect', async () => {
    const dcApi: SessionTranscriptInput = { kind: 'dc_api', origin: 'https://rp.example', nonce: NONCE, jwkThumbprint: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0' };
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(dcApi) });
    expect(errorsOf(await verify(raw, { sessionTranscript: dcApi }))).toEqual([]);
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:mdoc.device_signature_invalid']);
  });

  it('rejects a device signature over a SessionTranscript with another nonce', async () => {
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes({ ...redirect, nonce: 'another-nonce' }) });
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:mdoc.device_signature_invalid']);
  });

  it('rejects a device signature made with a key other than the MSO device key', async () => {
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), deviceKeys: await generateTestKeys() });
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:mdoc.device_signature_invalid']);
  });

  it('rejects a tampered issuer-signed element (digest mismatch)', async () => {
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) });
    const tampered = rewrite(raw, (response) => {
      const nameSpaces = (firstDoc(response).get('issuerSigned') as Map<string, unknown>).get('nameSpaces') as Map<string, Tag[]>;
      const items = [...nameSpaces.values()][0]!;
      const item = decodeCbor(items[0]!.value as Uint8Array) as Map<string, unknown>;
      item.set('elementValue', item.get('elementValue') === true ? false : 'Eve');
      items[0] = new Tag(encodeCbor(item), 24);
    });
    const results = await verify(tampered);
    expect(errorsOf(results)).toEqual(['proof:mdoc.digest_mismatch']);
  });

  it('rejects a document signer whose extendedKeyUsage lacks mdlDS; accepts one that has it', async () => {
    const tls = await ca.issue({ subject: 'CN=TLS Server,C=DE', extensions: [new ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.1'])] });
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), signerCert: tls })))).toEqual(['proof:trusted_issuer.chain_invalid']);
    const ds = await ca.issue({ subject: 'CN=DS,C=DE', extensions: [new ExtendedKeyUsageExtension(['1.0.18013.5.1.2'])] });
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), signerCert: ds })))).toEqual([]);
  });

  it('rejects the IACA itself as document signer (a CA must not sign an MSO)', async () => {
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), signerCert: ca })))).toEqual(['proof:trusted_issuer.chain_invalid']);
  });

  it('rejects an issuerAuth signed by another key and an untrusted IACA', async () => {
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), issuerKeys: await generateTestKeys() })))).toEqual(['proof:proof.signature_invalid']);
    const other = localVerifier({ trustAnchors: [(await createTestCa('CN=Other IACA')).pem] });
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) }), {}, other))).toEqual(['proof:trusted_issuer.untrusted']);
  });

  it('rejects a document whose docType differs from the MSO docType', async () => {
    const raw = rewrite(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) }), (response) => firstDoc(response).set('docType', 'org.example.other'));
    expect(errorsOf(await verify(raw))).toEqual(['proof:mdoc.doctype_mismatch']);
  });

  it('checks validFrom and validUntil', async () => {
    const transcript = sessionTranscriptBytes(redirect);
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript, validFrom: new Date(Date.now() - 2 * 86_400_000), validUntil: new Date(Date.now() - 86_400_000) })))).toEqual([
      'notAfter:validity.expired',
    ]);
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript, validFrom: new Date(Date.now() + 86_400_000), validUntil: new Date(Date.now() + 2 * 86_400_000) })))).toEqual([
      'notBefore:validity.not_yet_valid',
    ]);
  });

  it('reports deviceMac as unsupported and a missing deviceAuth as missing holder binding', async () => {
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) });
    const deviceAuthOf = (response: Map<string, unknown>) => (firstDoc(response).get('deviceSigned') as Map<string, unknown>).get('deviceAuth') as Map<string, unknown>;
    const mac = rewrite(raw, (response) => {
      const auth = deviceAuthOf(response);
      auth.set('deviceMac', auth.get('deviceSignature'));
      auth.delete('deviceSignature');
    });
    expect(errorsOf(await verify(mac))).toEqual(['holderBinding:mdoc.device_mac_unsupported']);
    const none = rewrite(raw, (response) => deviceAuthOf(response).delete('deviceSignature'));
    expect(errorsOf(await verify(none))).toEqual(['holderBinding:holder_binding.missing']);
    expect(errorsOf(await verify(none, { holderBindingRequired: { mdl: false } }))).toEqual([]);
    expect(errorsOf(await verify(none, { holderBindingRequired: { mdl: false }, profile: 'haip' }))).toEqual(['holderBinding:holder_binding.missing']);
  });

  it('HAIP: rejects an issuerAuth signed with ES384 (COSE -35); accepted outside HAIP, ES256 accepted under HAIP', async () => {
    const transcript = sessionTranscriptBytes(redirect);
    expect(errorsOf(await verify(await fx.deviceResponse({ transcript }), { profile: 'haip' }))).toEqual([]);
    const signer384 = await ca.issue({ subject: 'CN=mDL Document Signer ES384,C=DE', keys: await generateTestKeys('P-384') });
    const raw = await fx.deviceResponse({ transcript, signerCert: signer384, issuerAlg: 'ES384' });
    expect(coseAlgOf(raw, (doc) => (doc.get('issuerSigned') as Map<string, unknown>).get('issuerAuth'))).toBe(-35);
    const open = await verify(raw);
    expect(errorsOf(open)).toEqual([]);
    expect(open[0]!.data).toMatchObject({ alg: 'ES384' });
    const haip = await verify(raw, { profile: 'haip' });
    expect(errorsOf(haip)).toEqual(['proof:proof.algorithm_not_allowed']);
    expect(haip[0]!.error!.detail).toContain('-35');
  });

  it('HAIP: rejects a deviceSignature made with ES384 (COSE -35); accepted outside HAIP', async () => {
    const device384 = await generateTestKeys('P-384');
    const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect), msoDeviceKey: device384, deviceAlg: 'ES384' });
    expect(coseAlgOf(raw, (doc) => ((doc.get('deviceSigned') as Map<string, unknown>).get('deviceAuth') as Map<string, unknown>).get('deviceSignature'))).toBe(-35);
    const open = await verify(raw);
    expect(errorsOf(open)).toEqual([]);
    expect(open[3]!.data).toMatchObject({ method: 'deviceSignature', alg: 'ES384' });
    expect(errorsOf(await verify(raw, { profile: 'haip' }))).toEqual(['holderBinding:proof.algorithm_not_allowed']);
  });

  it('rejects a DeviceResponse with a non-zero status and garbage input', async () => {
    const raw = rewrite(await fx.deviceResponse({ transcript: sessionTranscriptBytes(redirect) }), (response) => response.set('status', 10));
    expect(errorsOf(await verify(raw))).toEqual(['proof:mdoc.status_error']);
    expect(errorsOf(await verify('!!'))).toEqual(['format:format.malformed']);
  });
});

describe('sessionTranscriptBytes (local)', () => {
  it('matches the OpenID4VP 1.0 example vector', () => {
    const input: SessionTranscriptInput = {
      kind: 'redirect',
      clientId: 'x509_san_dns:example.com',
      nonce: 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA',
      responseUri: 'https://example.com/response',
      jwkThumbprint: Buffer.from('4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047', 'hex').toString('base64url'),
    };
    expect(Buffer.from(sessionTranscriptBytes(input)).toString('hex')).toBe('83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac');
  });
});
