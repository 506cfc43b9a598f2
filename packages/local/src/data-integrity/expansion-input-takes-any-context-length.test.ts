import { describe, expect, it } from 'vitest';
import { expansionInput } from './expand-credential-types.js';

// A wallet's credential may carry an @context array as long as the document limits allow (about
// 130,000 short entries in 1 MiB): counting its embedded contexts must not overflow the call stack,
// which would end the presentation in `error` instead of a rejection by the budget.
describe('expansionInput', () => {
  it('counts the embedded contexts of a 200,000-entry @context array without overflowing the stack', () => {
    const context = ['https://www.w3.org/ns/credentials/v2', ...Array.from({ length: 200_000 }, () => ({}))];
    const input = expansionInput({ '@context': context, type: ['VerifiableCredential'] });
    expect(input?.embeddedContexts).toBe(200_000);
  });
});
