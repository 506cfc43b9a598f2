import type { SupportedAlgorithms, VerifierClient } from '../model/verifier-client.js';

/** What we advertise when the verifier does not say (ES256; COSE -7 ES256 and -9 ESP256). */
export const ES256_ONLY: SupportedAlgorithms = Object.freeze({ jose: Object.freeze(['ES256']), cose: Object.freeze([-7, -9]) });

const isList = <T>(value: unknown, item: (x: unknown) => x is T): value is T[] => Array.isArray(value) && value.length > 0 && value.every(item);
const isString = (x: unknown): x is string => typeof x === 'string';
const isInteger = (x: unknown): x is number => Number.isInteger(x);

/**
 * The algorithms requests of this profile advertise and wallet metadata is checked against: the
 * verifier's own declaration (so we never offer what `verify` would refuse), else ES256 only.
 * A declaration with an empty or malformed list falls back too, rather than advertising nothing.
 */
export function acceptedAlgorithms(verifier: Pick<VerifierClient, 'supportedAlgorithms'> | undefined, profile: 'haip' | undefined): SupportedAlgorithms {
  const declared = verifier?.supportedAlgorithms?.(profile);
  if (!declared || !isList(declared.jose, isString) || !isList(declared.cose, isInteger)) return ES256_ONLY;
  // A frozen declaration (localVerifier's is) cannot change under us: no copy needed.
  if (Object.isFrozen(declared) && Object.isFrozen(declared.jose) && Object.isFrozen(declared.cose)) return declared;
  return { jose: [...declared.jose], cose: [...declared.cose] };
}
