import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { isRecord } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifiedJwtCredential } from './verify-jwt-credential.js';

const mismatch = (detail: string) => new PolicyFailure('holder_binding.subject_mismatch', detail);

async function thumbprint(jwk: unknown): Promise<string | undefined> {
  try {
    return await calculateJwkThumbprint(jwk as JWK, 'sha256');
  } catch {
    return undefined;
  }
}

/**
 * A VP signature binds the embedded credentials to the holder only when each credential names
 * that holder. With a `cnf` claim, its `jwk` must be the VP signing key. Otherwise the JWT `sub`
 * and every `credentialSubject.id` must be the DID that signed the VP. A credential naming
 * nobody is a bearer credential and fails, since the query asked for holder binding.
 */
export async function checkSubjectBinding(vc: VerifiedJwtCredential, holder: { did: string; key: KeyObject }): Promise<Record<string, unknown>> {
  const cnf = vc.payload.cnf;
  if (cnf !== undefined) {
    const expected = await thumbprint(holder.key.export({ format: 'jwk' }));
    const actual = isRecord(cnf) && isRecord(cnf.jwk) ? await thumbprint(cnf.jwk) : undefined;
    if (actual === undefined || actual !== expected) throw mismatch('The credential cnf key is not the key that signed the presentation');
    return { method: 'cnf', holder: holder.did };
  }
  const subjects: unknown[] = [];
  if (vc.payload.sub !== undefined) subjects.push(vc.payload.sub);
  const credentialSubject = vc.credential.credentialSubject;
  for (const subject of Array.isArray(credentialSubject) ? credentialSubject : [credentialSubject]) {
    if (isRecord(subject) && subject.id !== undefined) subjects.push(subject.id);
  }
  if (subjects.length === 0) throw mismatch('The credential names no subject that could be bound to the holder');
  if (subjects.some((s) => s !== holder.did)) throw mismatch('The credential subject is not the DID that signed the presentation');
  return { method: 'subject', holder: holder.did };
}
