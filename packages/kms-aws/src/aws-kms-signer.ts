import { createHash } from 'node:crypto';
import { KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { SignerUnavailableError, type RequestSigner } from '@vp-authorizer/core';
import { derToP1363 } from './der-to-p1363.js';

/** Default and largest wait for one `Sign` call (retries included), in ms. */
const DEFAULT_TIMEOUT_MS = 4_000;
const MAX_TIMEOUT_MS = 60_000;
/** P-256: r and s are 32 bytes each. */
const P256_BYTES = 32;

export interface AwsKmsSignerOptions {
  /**
   * The KMS key: its id, ARN, alias name (`alias/…`) or alias ARN. An asymmetric key of spec
   * ECC_NIST_P256 with usage SIGN_VERIFY; the caller needs `kms:Sign` on it, nothing else.
   */
  keyId: string;
  /**
   * A client the application configured (credentials, endpoint, retries, proxy). Give this or
   * `region`, not both.
   */
  client?: KMSClient;
  /** Build a client for this region with the SDK's default credentials and retries; `close()` destroys it. */
  region?: string;
  /**
   * With `region`: a KMS-compatible endpoint URL instead of AWS's own for that region (a VPC
   * endpoint, or a local stand-in in tests). Credentials still come from the SDK's default chain.
   */
  endpoint?: string;
  /** The key's certificate chain, PEM or base64 DER, leaf first, without the trust anchor. */
  certificateChain: readonly string[];
  /**
   * Longest wait for one signature, the SDK's retries included (default 4000 ms, at most 60000):
   * past it the call is aborted (its connection closed) and the signature fails. Keep it below the
   * identity's `signing.timeoutMs` (default 5000 ms) so that a call is cancelled, not left running,
   * when the authorizer gives up.
   */
  timeoutMs?: number;
}

/** A RequestSigner on AWS KMS. */
export interface AwsKmsSigner extends RequestSigner {
  /** Destroys the client this signer built from `region` (a client you passed is yours to destroy). Idempotent. */
  close(): void;
}

/**
 * A RequestSigner whose key stays in AWS KMS: each signature is one `Sign` call
 * (`ECDSA_SHA_256`) over the SHA-256 digest of the JWS signing input, its DER answer turned
 * into `r || s`. Any failure (throttling, a disabled key, no network, a timeout) rejects with
 * SignerUnavailableError, which the authorizer answers 503 `signing.unavailable` with Retry-After.
 * The authorizer checks the key against the certificate with one probe signature on first use.
 */
export function awsKmsSigner(options: AwsKmsSignerOptions): AwsKmsSigner {
  const { keyId, certificateChain } = options;
  if (typeof keyId !== 'string' || keyId.trim() === '') throw new TypeError('awsKmsSigner: keyId is required (the key id, ARN or alias of an ECC_NIST_P256 SIGN_VERIFY key)');
  if ((options.client === undefined) === (options.region === undefined)) throw new TypeError('awsKmsSigner: give either a configured KMSClient (client) or a region, not both and not neither');
  if (options.region !== undefined && (typeof options.region !== 'string' || options.region.trim() === '')) throw new TypeError('awsKmsSigner: region must be an AWS region name such as "eu-central-1"');
  if (options.endpoint !== undefined && (options.client !== undefined || !/^https?:\/\/[^\s]+$/.test(options.endpoint))) throw new TypeError('awsKmsSigner: endpoint goes with region (configure a client you pass yourself) and must be an http(s) URL');
  if (!Array.isArray(certificateChain) || certificateChain.length === 0) throw new TypeError('awsKmsSigner: certificateChain must list the key\'s certificates, leaf first, without the root');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) throw new TypeError(`awsKmsSigner: timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  const owned = options.client === undefined;
  const client = options.client ?? new KMSClient({ region: options.region!, ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}) });

  return {
    alg: 'ES256',
    certificateChain: Object.freeze([...certificateChain]),
    async sign(data) {
      // DIGEST, not RAW: RAW takes at most 4096 bytes, and a request object's signing input (x5c
      // chain, client metadata, registration certificates) can be longer. KMS signs the 32-byte
      // SHA-256 digest as ECDSA_SHA_256 would have hashed it.
      const digest = createHash('sha256').update(data).digest();
      let signature: Uint8Array | undefined;
      try {
        const answer = await client.send(new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }), { abortSignal: AbortSignal.timeout(timeoutMs) });
        signature = answer.Signature;
      } catch (error) {
        throw new SignerUnavailableError(`AWS KMS Sign failed (${describe(error, timeoutMs)})`, error);
      }
      if (!(signature instanceof Uint8Array)) throw new SignerUnavailableError('AWS KMS answered Sign without a signature');
      try {
        return derToP1363(signature, P256_BYTES);
      } catch (error) {
        // Not P-256 (a P-384 key answers longer integers) or not DER: the key is not fit for ES256.
        throw new SignerUnavailableError('AWS KMS answered a signature that is not a DER ECDSA P-256 signature (is the key ECC_NIST_P256?)', error);
      }
    },
    close() {
      if (owned) client.destroy();
    },
  };
}

/**
 * What went wrong, by the SDK error's name and HTTP status only: AWS error messages name the
 * account, the key ARN and the caller's role, and this message may reach a response body.
 * The SDK error itself stays the `cause`, for the operator's logs.
 */
function describe(error: unknown, timeoutMs: number): string {
  const { name, $metadata } = (error ?? {}) as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const status = typeof $metadata?.httpStatusCode === 'number' ? `, HTTP ${$metadata.httpStatusCode}` : '';
  return `${typeof name === 'string' && /^[A-Za-z]{1,64}$/.test(name) ? name : 'error'}${status}`;
}
