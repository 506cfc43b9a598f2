import { createHash } from 'node:crypto';
import { Encoder } from 'cbor-x';
import { type JWK, calculateJwkThumbprint } from 'jose';
import { base64UrlToBytes } from './base64url.js';

// Byte strings must stay plain bstr (cbor-x tags Uint8Array with 64 by default).
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/** What the mdoc deviceSignature is bound to (OpenID4VP 1.0 appendix B.2.6). */
export type HandoverInput =
  | { kind: 'redirect'; clientId: string; nonce: string; responseUri: string; /** the verifier key the response is encrypted to, or null */ encryptionJwk: JsonWebKey | null }
  | { kind: 'dc_api'; /** without the `origin:` prefix */ origin: string; nonce: string; encryptionJwk: JsonWebKey | null }
  | { kind: 'annex_c'; origin: string; /** the EncryptionInfo as received: base64url CBOR */ encryptionInfo: string };

/** RFC 7638 SHA-256 thumbprint as raw bytes (the handover carries bytes, not base64url). */
export async function jwkThumbprintBytes(jwk: JsonWebKey): Promise<Uint8Array> {
  return base64UrlToBytes(await calculateJwkThumbprint(jwk as JWK, 'sha256'));
}

/**
 * SHA-256 over CBOR `[client_id, nonce, jwkThumbprint|null, response_uri]` (redirect) or
 * `[origin, nonce, jwkThumbprint|null]` (DC API).
 */
export async function handoverInfoHash(input: HandoverInput): Promise<Uint8Array> {
  // ISO/IEC 18013-7 Annex C: dcapiInfo = [Base64EncryptionInfo, SerializedOrigin].
  if (input.kind === 'annex_c') return sha256(cbor.encode([input.encryptionInfo, input.origin]));
  const thumbprint = input.encryptionJwk ? await jwkThumbprintBytes(input.encryptionJwk) : null;
  const info = input.kind === 'redirect' ? [input.clientId, input.nonce, thumbprint, input.responseUri] : [input.origin, input.nonce, thumbprint];
  return sha256(cbor.encode(info));
}

/**
 * CBOR `SessionTranscript = [null, null, [handoverName, handoverInfoHash]]`. Built here rather
 * than by @animo-id/mdoc 0.5.2, whose OpenID4VP helpers follow pre-1.0 drafts.
 */
export async function sessionTranscriptBytes(input: HandoverInput): Promise<Uint8Array> {
  const name = input.kind === 'redirect' ? 'OpenID4VPHandover' : input.kind === 'dc_api' ? 'OpenID4VPDCAPIHandover' : 'dcapi';
  return new Uint8Array(cbor.encode([null, null, [name, await handoverInfoHash(input)]]));
}
