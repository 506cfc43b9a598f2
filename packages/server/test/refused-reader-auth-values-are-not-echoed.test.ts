// A careless operator pastes the reader key into AUTHZ_READER_AUTH (meant for "signing") instead of
// pointing AUTHZ_READER_AUTH_KEY_FILE at it: the refusal names the variable, never the key.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { configFromEnv, EnvConfigError } from '@vp-authorizer/server';

const problemsOf = (env: Record<string, string>) => {
  try {
    configFromEnv(env, { defaultPort: 3001 });
  } catch (error) {
    expect(error).toBeInstanceOf(EnvConfigError);
    return error as EnvConfigError;
  }
  throw new Error('expected the environment to be refused');
};

const keyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
// The part of the PEM that is secret (its base64 body), not its header.
const keyBody = keyPem.split('\n').slice(1, -2).join('');

describe('a refused readerAuth setting', () => {
  it.each(['AUTHZ_READER_AUTH', 'AUTHZ_READER_AUTH_ALG'])('does not echo a private key pasted into %s', (variable) => {
    const error = problemsOf({ ...(variable === 'AUTHZ_READER_AUTH_ALG' ? { AUTHZ_READER_AUTH: 'signing' } : {}), [variable]: keyPem });
    expect(error.problems.map((p) => p.variable)).toEqual([variable]);
    expect(error.problems[0]!.message).toContain(`a value of ${keyPem.trim().length} characters (not shown)`);
    for (const text of [error.message, JSON.stringify(error.problems)]) {
      expect(text).not.toContain(keyBody.slice(0, 24));
      expect(text).not.toContain('PRIVATE KEY');
    }
  });

  it('still quotes a short mistaken word, so the operator sees the typo', () => {
    expect(problemsOf({ AUTHZ_READER_AUTH: 'yes' }).problems[0]!.message).toContain('got "yes"');
    expect(problemsOf({ AUTHZ_READER_AUTH: 'signing', AUTHZ_READER_AUTH_ALG: 'ES384' }).problems[0]!.message).toContain('got "ES384"');
  });
});
