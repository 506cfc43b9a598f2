import { describe, expect, it } from 'vitest';
import { PolicyFailure } from '../verifier/policy-failure.js';
import { BUNDLED_CONTEXTS } from './bundled-contexts.js';
import { expandCredentialTypes, expansionInput } from './expand-credential-types.js';

// A wallet's credential may carry an @context array as long as the body allows (about 130,000
// short entries in 1 MiB): measuring it must not overflow the call stack, which would end the
// presentation in `error` instead of a rejection, and nothing of it is expanded or charged.
describe('expansionInput', () => {
  it('measures a 200,000-entry @context array without overflowing the stack and refuses it uncharged', async () => {
    const context = ['https://www.w3.org/ns/credentials/v2', ...Array.from({ length: 200_000 }, () => ({}))];
    const input = expansionInput({ '@context': context, type: ['VerifiableCredential'] });
    expect(input?.measure).toBeInstanceOf(PolicyFailure);
    let charged = 0;
    const result = await expandCredentialTypes(input!, BUNDLED_CONTEXTS, () => charged++);
    expect(result).toMatchObject({ ok: false, code: 'data_integrity.limit_exceeded' });
    expect(charged).toBe(0);
  });

  it('counts embedded, scoped and imported context definitions with the verifier’s measure', () => {
    const context = [
      'https://www.w3.org/ns/credentials/v2',
      { '@import': 'https://www.w3.org/ns/credentials/examples/v2', a: 'https://e.example/a', b: { '@id': 'https://e.example/b', '@context': { c: 'https://e.example/c' } } },
      { d: { '@id': 'https://e.example/d', '@context': 'https://www.w3.org/ns/credentials/v2' } },
    ];
    const input = expansionInput({ '@context': context, type: ['VerifiableCredential'] });
    // Two embedded objects, one scoped object, one scoped URL, one @import.
    expect(input?.embeddedContexts).toBe(5);
    expect(input?.measure).not.toBeInstanceOf(PolicyFailure);
    expect(input?.measure).toMatchObject({ termDefinitions: 4 });
  });
});
