import { createHash } from 'node:crypto';
import { Decoder, Encoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { coseKeyToP256Jwk } from '../crypto/p256-cose-key.js';
import { sessionTranscriptBytes } from '../crypto/session-transcript.js';
import { sharedTestdataJson } from '../crypto/__fixtures__/shared-testdata.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { CborBudget, CborBudgetExceeded } from '../formats/shared/cbor-budget.js';
import { annexCTranscriptInput } from '../authorization/session-transcript-input.js';
import { decryptAnnexCResponse } from './decrypt-annex-c-response.js';

// ISO/IEC 18013-7 Annex C, checked against walt-id/waltid-identity's published vector
// ANNEXC-DETERMINISTIC-001 (waltid-18013-7-verifier test resources; shared/testdata/annexc-vectors.json,
// member annexc_deterministic): its EncryptionInfo, origin, HPKE response and recipient key, and
// the SHA-256 of its SessionTranscript and of the decrypted DeviceResponse.
interface Deterministic { origin: string; encryptionInfo: string; response: string; recipientPrivateKeyHex: string; sessionTranscriptCborSha256Hex: string; deviceResponseCborSha256Hex: string }
interface Capture { origin: string; encryptionInfo: string; sessionTranscriptCborSha256Hex: string }
const vectors = sharedTestdataJson<{ annexc_deterministic: Deterministic; annexc_multipaz_capture: Capture }>('annexc-vectors.json');
const det = vectors.annexc_deterministic;
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function recipientKeyOf(vector: Deterministic): JsonWebKey {
  const info = decoder.decode(Buffer.from(vector.encryptionInfo, 'base64url')) as [string, Map<string, unknown>];
  const publicJwk = coseKeyToP256Jwk(info[1].get('recipientPublicKey'));
  return { ...publicJwk, d: Buffer.from(vector.recipientPrivateKeyHex, 'hex').toString('base64url') };
}
const transcriptAt = (origin: string) => annexCTranscriptInput(det.encryptionInfo, origin);

describe('Annex C SessionTranscript and HPKE response', () => {
  it('builds the SessionTranscript bytes of both published vectors (the HPKE info is the transcript itself, not tag 24)', () => {
    for (const vector of [det, vectors.annexc_multipaz_capture]) {
      const transcript = sessionTranscriptBytes({ kind: 'annex_c', encryptionInfo: vector.encryptionInfo, origin: vector.origin });
      expect(sha256Hex(transcript)).toBe(vector.sessionTranscriptCborSha256Hex);
      expect(transcript[0]).toBe(0x83); // an array of three, not a tag-24 byte string
    }
  });

  it('decrypts the deterministic vector to its DeviceResponse', async () => {
    const plain = await decryptAnnexCResponse(det.response, recipientKeyOf(det), transcriptAt(det.origin));
    expect(sha256Hex(plain)).toBe(det.deviceResponseCborSha256Hex);
  });

  it('refuses the vector under another origin or another recipient key as annex_c_decryption_failed', async () => {
    await expect(decryptAnnexCResponse(det.response, recipientKeyOf(det), transcriptAt('https://other.example'))).rejects.toMatchObject({ code: 'authorization.annex_c_decryption_failed' });
    const other = { ...recipientKeyOf(det), d: Buffer.alloc(32, 7).toString('base64url') };
    await expect(decryptAnnexCResponse(det.response, other, transcriptAt(det.origin))).rejects.toBeInstanceOf(AuthorizerError);
  });

  it('refuses envelopes that are not ["dcapi", {enc, cipherText}] as annex_c_malformed, before any key work', async () => {
    const env = decoder.decode(Buffer.from(det.response, 'base64url')) as [string, Map<string, Uint8Array>];
    const enc = env[1].get('enc')!;
    const ct = env[1].get('cipherText')!;
    const b64 = (value: unknown): string => Buffer.from(encoder.encode(value)).toString('base64url');
    for (const bad of [
      'not base64url!',
      b64(['dcapi']),
      b64(['openid4vp', env[1]]),
      b64(['dcapi', new Map([['enc', enc]])]),
      b64(['dcapi', new Map<string, unknown>([['enc', enc.subarray(0, 33)], ['cipherText', ct]])]),
      b64(['dcapi', new Map<string, unknown>([['enc', enc], ['cipherText', 'text']])]),
    ]) {
      await expect(decryptAnnexCResponse(bad, recipientKeyOf(det), transcriptAt(det.origin))).rejects.toMatchObject({ code: 'authorization.annex_c_malformed' });
    }
  });

  it('charges the envelope to the CBOR budget it is given', async () => {
    const budget = new CborBudget(2);
    const error = await decryptAnnexCResponse(det.response, recipientKeyOf(det), transcriptAt(det.origin), budget).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'authorization.annex_c_malformed' });
    expect((error as Error).cause).toBeInstanceOf(CborBudgetExceeded);
  });
});
