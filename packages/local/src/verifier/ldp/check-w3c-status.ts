import { PolicyFailure } from '../policy-failure.js';
import type { VerifierContext } from '../verifier-context.js';
import type { VerifiedLdpCredential } from './verify-ldp-credential.js';

/** W3C `credentialStatus` of a verified credential. */
export async function checkW3cStatus(_credential: Record<string, unknown>, _verified: VerifiedLdpCredential, _ctx: VerifierContext): Promise<Record<string, unknown>> {
  throw new PolicyFailure('status.unsupported', 'W3C credentialStatus mechanisms are not supported by the local verifier');
}
