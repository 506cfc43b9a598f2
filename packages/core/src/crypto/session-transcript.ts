import { createHash } from 'node:crypto';
import { Encoder } from 'cbor-x';
import type { SessionTranscriptInput } from '../model/verifier-client.js';
import { base64UrlToBytes } from './base64url.js';

// Plain bstr for Uint8Array (cbor-x would add tag 64 by default); no record extension.
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/** The required members of each key type, in the lexicographic order RFC 7638 section 3.2 hashes them. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = { EC: ['crv', 'kty', 'x', 'y'], OKP: ['crv', 'kty', 'x'], RSA: ['e', 'kty', 'n'], oct: ['k', 'kty'] };

/** RFC 7638 JWK thumbprint (SHA-256), base64url. Only the required members are hashed. */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  return jwkThumbprintSync(jwk);
}

/** jwkThumbprint without the promise, for callers that compute it on first read. */
export function jwkThumbprintSync(jwk: JsonWebKey): string {
  const members = typeof jwk.kty === 'string' ? THUMBPRINT_MEMBERS[jwk.kty] : undefined;
  if (!members) throw new TypeError('jwkThumbprint: unsupported or missing kty');
  const record = jwk as Record<string, unknown>;
  const canonical: Record<string, string> = {};
  for (const name of members) {
    const value = record[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`jwkThumbprint: "${name}" is missing`);
    canonical[name] = value;
  }
  // JSON.stringify keeps insertion order, which is the required lexicographic order here.
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
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
  // Annex C: the dcapiInfo is [Base64EncryptionInfo, SerializedOrigin], the text as sent, not its bytes.
  if (input.kind === 'annex_c') return sha256(cbor.encode([input.encryptionInfo, input.origin]));
  const thumbprint = thumbprintBytes(input.jwkThumbprint);
  const info =
    input.kind === 'redirect'
      ? [input.clientId, input.nonce, thumbprint, input.responseUri]
      : [input.origin, input.nonce, thumbprint];
  return sha256(cbor.encode(info));
}

const HANDOVER_NAMES = { redirect: 'OpenID4VPHandover', dc_api: 'OpenID4VPDCAPIHandover', annex_c: 'dcapi' } as const;

/**
 * CBOR `SessionTranscript = [null, null, Handover]` that an mdoc deviceSignature covers. For
 * Annex C these same bytes (not their tag-24 wrapping) are also the HPKE `info`.
 */
export function sessionTranscriptBytes(input: SessionTranscriptInput): Uint8Array {
  return new Uint8Array(cbor.encode([null, null, [HANDOVER_NAMES[input.kind], handoverInfoHash(input)]]));
}
