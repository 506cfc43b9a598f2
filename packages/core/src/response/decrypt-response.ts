import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { base64UrlToUtf8 } from '../crypto/base64url.js';
import { decryptEcdhEs } from '../crypto/ecdh-es-decrypt.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { withinJsonDepth } from '../formats/shared/json-depth.js';

const invalid = (message: string, cause?: unknown): AuthorizerError =>
  new AuthorizerError('authorization.invalid_jwe', cause === undefined ? { message } : { message, cause });

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decrypts a `direct_post.jwt` / `dc_api.jwt` response (OpenID4VP 1.0 section 8.3): an
 * unsigned, encrypted JWT whose plaintext is the JSON response parameters. The header is
 * checked before any key agreement: `alg` must equal the key's `alg`, a `kid` (when present,
 * we have a single key per request) must be ours, `enc` must be advertised. Signed payloads
 * (JARM style) are rejected. `apu`/`apv` are neither required nor forbidden.
 * Error messages never contain plaintext or key material.
 */
export async function decryptAuthorizationResponse(
  jwe: string,
  key: EncryptionKeyRecord,
  options: { allowedEnc: readonly string[] },
): Promise<{ payload: Record<string, unknown>; header: Record<string, unknown> }> {
  if (typeof jwe !== 'string' || jwe.split('.').length !== 5) throw invalid('The response is not a compact JWE (five parts).');

  let header: Record<string, unknown>;
  try {
    header = JSON.parse(base64UrlToUtf8(jwe.slice(0, jwe.indexOf('.')))) as Record<string, unknown>;
  } catch (cause) {
    throw invalid('The JWE protected header is not valid base64url JSON.', cause);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw invalid('The JWE protected header is not valid base64url JSON.');
  if (header.alg !== key.alg) throw invalid(`The JWE alg must be ${key.alg}.`);
  if (header.kid !== undefined && header.kid !== key.kid) throw invalid('The JWE kid does not identify this authorization\'s encryption key.');
  if (typeof header.enc !== 'string' || !options.allowedEnc.includes(header.enc)) {
    throw invalid(`The JWE enc must be one of ${options.allowedEnc.join(', ')}.`);
  }
  if (header.zip !== undefined) throw invalid('Compressed JWE payloads are not accepted.');

  let plaintext: Uint8Array;
  try {
    // The stored record's key, always (any process can decrypt): its scalar set on an ECDH costs
    // less than importing the key, and no process keeps keys of its own.
    plaintext = decryptEcdhEs(jwe, header, key.privateJwk);
  } catch (cause) {
    // The causes do not carry secrets, but keep ours generic and attach the cause for logs.
    throw invalid('The JWE could not be decrypted with this authorization\'s key.', cause);
  }

  let text: string;
  try {
    text = UTF8.decode(plaintext);
  } catch {
    throw invalid('The JWE plaintext is not UTF-8.');
  }
  if (COMPACT_JWS.test(text.trim())) throw invalid('The JWE carries a signed JWT; OpenID4VP 1.0 requires an unsigned payload.');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw invalid('The JWE plaintext is not JSON.');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid('The JWE plaintext is not a JSON object.');
  if (!withinJsonDepth(payload)) throw invalid('The JWE plaintext is nested too deeply.');
  return { payload: payload as Record<string, unknown>, header };
}
