import type { ParsedPresentation, ParsedSdJwt, VerifyInput } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import { FormatFailure, parsePresentation } from '@vp-authorizer/core/formats';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as v from 'valibot';

export const NONCE = 'n-0S6_WzA2Mj';
export const CLIENT_ID = 'x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk';
export const RESPONSE_URI = 'https://verifier.example/openid4/vp/v1_0/a1/direct_post.jwt';

export const signal = () => new AbortController().signal;

/** A VerifyInput for a redirect flow with sensible defaults. */
export function verifyInput(presentations: ParsedPresentation[], overrides: Partial<VerifyInput> = {}): VerifyInput {
  return {
    authorizationId: 'a1',
    query: { type: 'DCQL', dcql: { credentials: [] } },
    presentations,
    nonce: NONCE,
    audience: CLIENT_ID,
    sessionTranscript: { kind: 'redirect', clientId: CLIENT_ID, nonce: NONCE, responseUri: RESPONSE_URI, jwkThumbprint: null },
    holderBindingRequired: {},
    didMethods: v.parse(didMethodsConfigSchema, {}),
    ...overrides,
  };
}

/** What the format policy would hand over for an SD-JWT (the verifier reads only `raw`). */
export function sdJwtPresentation(raw: string, queryId = 'pid', index = 0): ParsedSdJwt {
  const [issuerJwt = ''] = raw.split('~');
  return {
    kind: 'sd-jwt',
    path: [queryId, index],
    queryId,
    index,
    format: 'dc+sd-jwt',
    raw,
    issuerJwt: { compact: issuerJwt, header: decodeProtectedHeader(issuerJwt) as Record<string, unknown>, payload: decodeJwt(issuerJwt) as Record<string, unknown> },
    disclosures: [],
    claims: {},
  };
}

/**
 * The presentation exactly as core's format policy hands it over in process (its decoding then
 * reused by the verifier); a raw the format policy refuses never reaches a verifier, so for
 * those the hand-built form above stands in.
 */
export function coreParsedSdJwt(raw: string, queryId = 'pid', index = 0): ParsedSdJwt {
  try {
    return parsePresentation(raw, { queryId, index, format: 'dc+sd-jwt' }) as ParsedSdJwt;
  } catch (error) {
    if (error instanceof FormatFailure) return sdJwtPresentation(raw, queryId, index);
    throw error;
  }
}
