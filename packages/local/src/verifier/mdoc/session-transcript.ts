import type { SessionTranscriptInput } from '@vp-authorizer/core';
import { base64UrlToBytes, sha256 } from '../encoding.js';
import { encodeCbor } from './mdoc-cbor.js';

// Local twin of core's crypto/session-transcript.ts, which @vp-authorizer/core does not export
// yet; switch to the core export once it is public. Verified against the spec vectors in tests.

/**
 * OpenID4VP 1.0 B.2.6: `SessionTranscript = [null, null, Handover]` with
 * redirect `["OpenID4VPHandover", sha256(cbor([client_id, nonce, thumbprint|null, response_uri]))]`,
 * DC API `["OpenID4VPDCAPIHandover", sha256(cbor([origin, nonce, thumbprint|null]))]`.
 */
export function sessionTranscriptBytes(input: SessionTranscriptInput): Uint8Array {
  const thumbprint = input.jwkThumbprint === null ? null : base64UrlToBytes(input.jwkThumbprint);
  if (thumbprint !== null && thumbprint.length !== 32) throw new TypeError('jwkThumbprint must be a base64url SHA-256 digest');
  const info = input.kind === 'redirect' ? [input.clientId, input.nonce, thumbprint, input.responseUri] : [input.origin, input.nonce, thumbprint];
  const name = input.kind === 'redirect' ? 'OpenID4VPHandover' : 'OpenID4VPDCAPIHandover';
  return encodeCbor([null, null, [name, sha256(encodeCbor(info))]]);
}
