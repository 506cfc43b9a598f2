import { describe, expect, it } from 'vitest';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { ConfigError, createAuthorizer, passThroughValidator, passThroughVerifier } from '../src/index.js';

// Regression: publicBaseUrl accepted userinfo (https://user:secret@host/…), and the public,
// unauthenticated GET /openapi.json echoes publicBaseUrl as its server URL, so the credentials
// went to anyone who asked (and into every request object's response_uri / request_uri).
describe('publicBaseUrl with credentials in it', () => {
  for (const publicBaseUrl of ['https://deploy:s3cret-token@verifier.example/authz', 'https://s3cret-token@verifier.example']) {
    it(`is refused at construction (${publicBaseUrl.replace(/\/\/[^@]*@/, '//…@')})`, async () => {
      const { signing } = await generateDevSigningKey();
      const build = () =>
        createAuthorizer({
          publicBaseUrl,
          sweepIntervalMs: 0,
          instances: [{ id: 'main', apiKeys: ['openapi-cred-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
        });
      let served: string | undefined;
      try {
        const authorizer = build();
        const res = await authorizer.fetch(new Request('https://verifier.example/openapi.json'));
        served = await res.text();
        await authorizer.close();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect(String((error as Error).message)).not.toContain('s3cret-token');
      }
      expect(served ?? '').not.toContain('s3cret-token');
      expect(build).toThrow(ConfigError);
    });
  }
});
