import { X509Certificate, createHash, verify } from 'node:crypto';
import { Decoder, Encoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { sharedTestdataJson } from './__fixtures__/shared-testdata.js';
import { createKeySigner } from './key-signer.js';
import { readerAuthenticationBytes, signReaderAuth, verifyReaderAuth, type ReaderAuthSigner } from './reader-authentication.js';
import { sessionTranscriptBytes } from './session-transcript.js';

// ANNEXC-REAL-001 of walt-id/waltid-identity's waltid-18013-7-verifier test resources: a request
// captured from multipaz's deployed verifier (verifier.multipaz.org) with a readerAuth
// (shared/testdata/annexc-vectors.json). Its signature proves the byte layout signed here.
interface Capture { origin: string; deviceRequest: string; encryptionInfo: string; sessionTranscriptCborSha256Hex: string }
const capture = sharedTestdataJson<{ annexc_multipaz_capture: Capture }>('annexc-vectors.json').annexc_multipaz_capture;
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

function capturedDocRequest() {
  const request = decoder.decode(Buffer.from(capture.deviceRequest, 'base64url')) as Map<string, unknown>;
  const docRequest = (request.get('docRequests') as Map<string, unknown>[])[0]!;
  return { itemsRequestBytes: (docRequest.get('itemsRequest') as Tag).value as Uint8Array, readerAuth: docRequest.get('readerAuth') as unknown[] };
}

const transcriptFor = (origin: string, encryptionInfo = capture.encryptionInfo) => sessionTranscriptBytes({ kind: 'annex_c', origin, encryptionInfo });

describe('readerAuth (ISO/IEC 18013-5 9.1.4) over the Annex C SessionTranscript', () => {
  it('verifies the readerAuth multipaz\'s deployed verifier sent, over the dcapi SessionTranscript we compute for its origin and EncryptionInfo (ESP256, x5chain of two)', () => {
    const transcript = transcriptFor(capture.origin);
    expect(createHash('sha256').update(transcript).digest('hex')).toBe(capture.sessionTranscriptCborSha256Hex);
    const { itemsRequestBytes, readerAuth } = capturedDocRequest();
    expect(Buffer.from(readerAuth[0] as Uint8Array).toString('hex')).toBe('a10128'); // {1: -9}: ESP256, not ES256
    const result = verifyReaderAuth(readerAuth, transcript, itemsRequestBytes);
    expect(result).toMatchObject({ valid: true, alg: 'ESP256' });
    if (!result.valid) return;
    expect(result.certificateChain).toHaveLength(2);
    expect(result.leaf.subject).toContain('Multipaz');
  });

  it('the captured signature holds only over the tag-24-wrapped ReaderAuthentication with the dcapi transcript of that very origin', () => {
    const { itemsRequestBytes, readerAuth } = capturedDocRequest();
    const transcript = transcriptFor(capture.origin);
    const key = new X509Certificate((readerAuth[1] as Map<number, Uint8Array[]>).get(33)![0]!).publicKey;
    const signatureOver = (payload: Uint8Array) => verify('sha256', encoder.encode(['Signature1', readerAuth[0], new Uint8Array(0), payload]), { key, dsaEncoding: 'ieee-p1363' }, readerAuth[3] as Uint8Array);
    const wrapped = readerAuthenticationBytes(transcript, itemsRequestBytes);
    expect(signatureOver(wrapped)).toBe(true);
    // The same array without the tag-24 bstr around it: what a verifier skipping the wrap would sign.
    const bare = (decoder.decode(wrapped) as Tag).value as Uint8Array;
    expect(signatureOver(bare)).toBe(false);
    expect(verifyReaderAuth(readerAuth, transcriptFor('https://verifier.multipaz.org.evil.example'), itemsRequestBytes)).toMatchObject({ valid: false });
    expect(verifyReaderAuth(readerAuth, transcriptFor(capture.origin, 'gmVkY2FwaaA'), itemsRequestBytes)).toMatchObject({ valid: false });
  });

  it('signs what it verifies, under either label, through a RequestSigner; an altered ItemsRequest or transcript fails', async () => {
    const dev = await generateDevSigningKey({ readerAuth: true });
    const keySigner = createKeySigner({ privateKey: dev.signing.privateKey, certificateChain: dev.signing.certificateChain });
    const x5chain = [new Uint8Array(Buffer.from(dev.leafCertificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64'))];
    const items = new Uint8Array(encoder.encode(new Map<string, unknown>([['docType', 'org.iso.18013.5.1.mDL'], ['nameSpaces', new Map([['org.iso.18013.5.1', new Map([['age_over_18', false]])]])]])));
    const transcript = transcriptFor('https://rp.example');
    for (const [alg, header] of [['ES256', 'a10126'], ['ESP256', 'a10128']] as const) {
      const signer: ReaderAuthSigner = { alg, x5chain, sign: (data) => keySigner.sign(data) };
      const readerAuth = await signReaderAuth(signer, transcript, items);
      expect(Buffer.from(readerAuth[0] as Uint8Array).toString('hex')).toBe(header);
      expect(readerAuth[2]).toBeNull(); // detached payload
      expect((readerAuth[1] as Map<number, unknown>).get(33)).toEqual(x5chain[0]); // one certificate: a bstr
      // What a wallet receives: the CBOR of the DeviceRequest, decoded again.
      const received = decoder.decode(encoder.encode(readerAuth));
      expect(verifyReaderAuth(received, transcript, items)).toMatchObject({ valid: true, alg });
      const otherItems = new Uint8Array(encoder.encode(new Map<string, unknown>([['docType', 'org.iso.18013.5.1.mDL'], ['nameSpaces', new Map([['org.iso.18013.5.1', new Map([['portrait', false]])]])]])));
      expect(verifyReaderAuth(received, transcript, otherItems)).toMatchObject({ valid: false, reason: expect.stringContaining('does not verify') });
      expect(verifyReaderAuth(received, transcriptFor('https://evil.example'), items)).toMatchObject({ valid: false });
    }
  });

  it('names what is wrong with a readerAuth that is not one', () => {
    const { itemsRequestBytes, readerAuth } = capturedDocRequest();
    const transcript = transcriptFor(capture.origin);
    expect(verifyReaderAuth('x', transcript, itemsRequestBytes)).toEqual({ valid: false, reason: 'readerAuth is not a COSE_Sign1' });
    expect(verifyReaderAuth([readerAuth[0], readerAuth[1], new Uint8Array(1), readerAuth[3]], transcript, itemsRequestBytes)).toMatchObject({ reason: 'readerAuth must have a detached payload (nil)' });
    expect(verifyReaderAuth([new Uint8Array(encoder.encode(new Map([[1, -35]]))), readerAuth[1], null, readerAuth[3]], transcript, itemsRequestBytes)).toMatchObject({ reason: expect.stringContaining('-35') });
    expect(verifyReaderAuth([readerAuth[0], new Map(), null, readerAuth[3]], transcript, itemsRequestBytes)).toMatchObject({ reason: 'readerAuth carries no x5chain' });
  });
});

