import { createHash } from 'node:crypto';
import { Encoder } from 'cbor-x';
import { calculateJwkThumbprint } from 'jose';
import type { SessionTranscriptInput } from '../model/verifier-client.js';
import { base64UrlToBytes } from './base64url.js';

// Plain bstr for Uint8Array (cbor-x would add tag 64 by default); no record extension.
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/** RFC 7638 JWK thumbprint (SHA-256), base64url. Only the required members are hashed. */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  return calculateJwkThumbprint(jwk as Parameters<typeof calculateJwkThumbprint>[0], 'sha256');
}

function thumbprintBytes(thumbprint: string | null): Uint8Array | null {
  if (thumbprint === null) return null;
  const bytes = base64UrlToBytes(thumbprint);
  if (bytes.length !== 32) throw new TypeError('jwkThumbprint must be a base64url SHA-256 digest');
  return bytes;
}

/**
 * SHA-256 over the CBOR-encoded handover info (OpenID4VP 1.0 B.2.6.1 / B.2.6.2):
 * redirect `[client_id, nonce, jwkThumbprint|null, response_uri]`,
 * DC API `[origin, nonce, jwkThumbprint|null]` (origin without the `origin:` prefix).
 */
export function handoverInfoHash(input: SessionTranscriptInput): Uint8Array {
  const thumbprint = thumbprintBytes(input.jwkThumbprint);
  const info =
    input.kind === 'redirect'
      ? [input.clientId, input.nonce, thumbprint, input.responseUri]
      : [input.origin, input.nonce, thumbprint];
  return sha256(cbor.encode(info));
}

/** CBOR `SessionTranscript = [null, null, Handover]` that an mdoc deviceSignature covers. */
export function sessionTranscriptBytes(input: SessionTranscriptInput): Uint8Array {
  const name = input.kind === 'redirect' ? 'OpenID4VPHandover' : 'OpenID4VPDCAPIHandover';
  return new Uint8Array(cbor.encode([null, null, [name, handoverInfoHash(input)]]));
}
