import { describe, expect, it } from 'vitest';
import type { VerifierClient } from '../model/verifier-client.js';
import { ES256_ONLY, acceptedAlgorithms } from './accepted-algorithms.js';
import { vpFormatsSupported } from './client-metadata.js';

const declaring = (answer: (profile: 'haip' | undefined) => unknown): Pick<VerifierClient, 'supportedAlgorithms'> => ({
  supportedAlgorithms: answer as VerifierClient['supportedAlgorithms'],
});
const dcql = { type: 'DCQL' as const, dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }, { id: 'mdl', format: 'mso_mdoc' }] } };

describe('acceptedAlgorithms', () => {
  it("uses the verifier's declaration for the request's profile", () => {
    const verifier = declaring((profile) => (profile === 'haip' ? { jose: ['ES256'], cose: [-7] } : { jose: ['ES256', 'ES384'], cose: [-7, -35] }));
    expect(acceptedAlgorithms(verifier, undefined)).toEqual({ jose: ['ES256', 'ES384'], cose: [-7, -35] });
    expect(acceptedAlgorithms(verifier, 'haip')).toEqual({ jose: ['ES256'], cose: [-7] });
  });

  it('copies a mutable declaration, so a verifier editing its lists later cannot change an accepted set', () => {
    const lists = { jose: ['ES256'], cose: [-7] };
    const accepted = acceptedAlgorithms(declaring(() => lists), undefined);
    lists.jose.push('EdDSA');
    lists.cose.push(-8);
    expect(accepted).toEqual({ jose: ['ES256'], cose: [-7] });
  });

  it('checks a frozen declaration like any other and falls back when it is malformed', () => {
    const frozen = Object.freeze({ jose: Object.freeze(['ES256']), cose: Object.freeze(['-7']) });
    expect(acceptedAlgorithms(declaring(() => frozen), undefined)).toEqual(ES256_ONLY);
  });

  it('falls back to ES256 when the verifier is skipped, silent, or declares an empty or malformed list', () => {
    expect(acceptedAlgorithms(undefined, undefined)).toEqual(ES256_ONLY);
    expect(acceptedAlgorithms({}, undefined)).toEqual(ES256_ONLY);
    expect(acceptedAlgorithms(declaring(() => ({ jose: [], cose: [-7] })), undefined)).toEqual(ES256_ONLY);
    expect(acceptedAlgorithms(declaring(() => ({ jose: ['ES256'], cose: ['-7'] })), undefined)).toEqual(ES256_ONLY);
  });
});

describe('vpFormatsSupported', () => {
  it('advertises exactly the accepted algorithms per format (JOSE names for SD-JWT, COSE ids for mdoc)', () => {
    expect(vpFormatsSupported(dcql, { jose: ['ES256', 'EdDSA'], cose: [-7, -9, -8] })).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256', 'EdDSA'], 'kb-jwt_alg_values': ['ES256', 'EdDSA'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9, -8], deviceauth_alg_values: [-7, -9, -8] },
    });
  });

  it('keeps the ES256 table for verifiers that do not declare', () => {
    expect(vpFormatsSupported(dcql)).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
    });
  });
});
