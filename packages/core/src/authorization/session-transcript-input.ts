import { jwkThumbprintSync } from '../crypto/session-transcript.js';
import type { AuthorizationRequestParameters } from '../model/authorization-record.js';
import type { SessionTranscriptInput } from '../model/verifier-client.js';

/**
 * The SessionTranscript inputs handed to the verifier. Only an mdoc presentation reads the
 * thumbprint of our encryption key, so it is computed on first read (then kept) rather than for
 * every encrypted response; it is an ordinary enumerable property, so copies and JSON carry it.
 */
export function sessionTranscriptInput(request: AuthorizationRequestParameters, channel: { origin?: string; encryptionJwk: JsonWebKey | null }): OpenId4VpTranscriptInput {
  const base =
    channel.origin !== undefined
      ? { kind: 'dc_api' as const, origin: channel.origin, nonce: request.nonce }
      : { kind: 'redirect' as const, clientId: request.clientId ?? '', nonce: request.nonce, responseUri: request.responseUri ?? '' };
  const jwk = channel.encryptionJwk;
  let thumbprint: string | null | undefined = jwk === null ? null : undefined;
  return Object.defineProperty(base, 'jwkThumbprint', {
    enumerable: true,
    get: (): string | null => (thumbprint === undefined ? (thumbprint = jwkThumbprintSync(jwk!)) : thumbprint),
  }) as OpenId4VpTranscriptInput;
}

type OpenId4VpTranscriptInput = Exclude<SessionTranscriptInput, { kind: 'annex_c' }>;

export type AnnexCTranscriptInput = Extract<SessionTranscriptInput, { kind: 'annex_c' }>;

/**
 * The Annex C transcript inputs: the EncryptionInfo as handed out and the origin the browser
 * reported, built once per response and handed to both the HPKE open and the verifier. Frozen:
 * neither may change what the other reads.
 */
export const annexCTranscriptInput = (encryptionInfo: string, origin: string): AnnexCTranscriptInput => Object.freeze({ kind: 'annex_c', origin, encryptionInfo });
