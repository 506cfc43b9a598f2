import type { ValidatorClient } from '../clients/validator-client.js';
import type { VerifierClient } from '../clients/verifier-client.js';
import type { InstanceOptions } from '../config/authorizer-options.js';
import { instanceConfigSchema, type InstanceConfig } from '../config/instance-config.js';
import { resolveServiceClient } from '../clients/resolve-service-client.js';
import { parseConfig } from '../config/validate-config.js';
import { checkSigningInput, loadSigningMaterial, type SigningInput, type SigningMaterial } from '../request/signing-material.js';
import { matchesDigest, sha256Digest } from '../crypto/secrets.js';

/** One instance, validated and ready: config parsed, keys hashed, clients resolved. */
export interface InstanceRuntime {
  id: string;
  config: InstanceConfig;
  /** `undefined` when validate is skipped. */
  validator: ValidatorClient | undefined;
  /** `undefined` when verify is skipped. */
  verifier: VerifierClient | undefined;
  signing(): Promise<SigningMaterial>;
  /** How long a claimed response may take before the sweep may expire it: the slowest client timeout plus a margin. */
  claimGraceMs: number;
  /** Store TTL for a new record: its lifetime, the processing grace, then the retention. */
  recordTtlMs: number;
  /** Constant-time check of a presented API key against every configured key. */
  acceptsApiKey(presented: string): boolean;
}

export function createInstanceRuntime(
  options: InstanceOptions,
  index: number,
  registry: { validators?: Record<string, ValidatorClient>; verifiers?: Record<string, VerifierClient> },
): InstanceRuntime {
  const where = `instances[${index}] (${options.id})`;
  const config = parseConfig(instanceConfigSchema, options.config, `configuration of ${where}`);
  const signingInput: SigningInput = checkSigningInput(options.signing, `instances.${index}.signing`);
  const keyDigests = options.apiKeys.map(sha256Digest);
  const { validate, verify } = config.policies;
  const validator = validate.skip ? undefined : resolveServiceClient(validate.validator, registry.validators ?? {}, options.validator, `${where}: policies.validate.validator`);
  const verifier = verify.skip ? undefined : resolveServiceClient(verify.verifier, registry.verifiers ?? {}, options.verifier, `${where}: policies.verify.verifier`);
  let material: Promise<SigningMaterial> | undefined;
  const claimGraceMs = Math.max(validate.timeoutMs, verify.timeoutMs) + 30_000;
  return {
    id: options.id,
    config,
    claimGraceMs,
    // A code issued at the last moment must still find its record: keep at least the code's lifetime.
    recordTtlMs: config.openId4vp.expiresAfter + claimGraceMs + Math.max(config.openId4vp.retention, config.openId4vp.responseCodeTtl),
    validator,
    verifier,
    signing: () => (material ??= loadSigningMaterial(signingInput)),
    acceptsApiKey(presented) {
      // Check every key (no early exit) so timing does not reveal which one matched.
      let ok = false;
      for (const digest of keyDigests) ok = matchesDigest(presented, digest) || ok;
      return ok;
    },
  };
}
