import { base64UrlToBytes } from '../crypto/base64url.js';
import { hpkeOpen, HPKE_P256_ENC_LENGTH } from '../crypto/hpke.js';
import { sessionTranscriptBytes } from '../crypto/session-transcript.js';
import type { AnnexCTranscriptInput } from '../authorization/session-transcript-input.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { CborBudget } from '../formats/shared/cbor-budget.js';
import { decodeWalletCbor } from '../formats/shared/wallet-cbor.js';

const malformed = (message: string, cause?: unknown): AuthorizerError =>
  new AuthorizerError('authorization.annex_c_malformed', cause === undefined ? { message } : { message, cause });

/**
 * Opens an ISO/IEC 18013-7 Annex C response: base64url CBOR `["dcapi", {enc, cipherText}]`,
 * HPKE base mode to our recipient key with `info` = the CBOR SessionTranscript
 * `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]` and empty aad. The envelope
 * is decoded with the wallet CBOR decoder under `budget` before any key work. `transcript` (the
 * EncryptionInfo handed out and the origin reported) is the one the verifier then checks
 * DeviceAuth against: its bytes are computed once for both. The plaintext is the DeviceResponse
 * bytes; messages never carry plaintext or key material.
 */
export async function decryptAnnexCResponse(response: string, recipientPrivateJwk: JsonWebKey, transcript: AnnexCTranscriptInput, budget: CborBudget = new CborBudget()): Promise<Uint8Array> {
  let envelope: unknown;
  try {
    envelope = decodeWalletCbor(base64UrlToBytes(response), budget);
  } catch (cause) {
    throw malformed('The org-iso-mdoc response is not base64url CBOR a wallet may send.', cause);
  }
  if (!Array.isArray(envelope) || envelope.length !== 2 || envelope[0] !== 'dcapi' || !(envelope[1] instanceof Map)) {
    throw malformed('The org-iso-mdoc response must be ["dcapi", {enc, cipherText}].');
  }
  const enc: unknown = envelope[1].get('enc');
  const cipherText: unknown = envelope[1].get('cipherText');
  if (!(enc instanceof Uint8Array) || enc.length !== HPKE_P256_ENC_LENGTH || enc[0] !== 0x04) throw malformed('enc must be an uncompressed P-256 point (65 bytes).');
  // The AES-GCM tag alone is 16 bytes.
  if (!(cipherText instanceof Uint8Array) || cipherText.length < 16) throw malformed('cipherText must be a byte string of at least 16 bytes.');
  const info = sessionTranscriptBytes(transcript);
  try {
    return await hpkeOpen({ recipientPrivateJwk, enc, cipherText, info });
  } catch (cause) {
    throw new AuthorizerError('authorization.annex_c_decryption_failed', { cause });
  }
}
