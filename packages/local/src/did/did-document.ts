import type { JWK } from 'jose';

export interface VerificationMethod {
  id: string;
  type?: string;
  controller?: string;
  publicKeyJwk?: JWK;
  publicKeyMultibase?: string;
  publicKeyBase58?: string;
  [k: string]: unknown;
}

export type VerificationRelationship = 'authentication' | 'assertionMethod';

/** The parts of a DID document the verifier reads. */
export interface DidDocument {
  id: string;
  verificationMethod?: VerificationMethod[];
  authentication?: (string | VerificationMethod)[];
  assertionMethod?: (string | VerificationMethod)[];
  [k: string]: unknown;
}

/** A key taken from a DID document, with the absolute id of its verification method. */
export interface ResolvedDidKey {
  did: string;
  keyId: string;
  jwk: JWK;
}
