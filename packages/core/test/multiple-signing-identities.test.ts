// An instance with several signing identities (signing as an array), as createAuthorizer sees it.
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, generateDevSigningKey, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { DCQL_SD_JWT } from './__fixtures__/test-authorizer.js';

const build = (signing: unknown, openId4vp: Record<string, unknown> = {}) =>
  createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'main', apiKeys: ['k-123456789'], signing: signing as never, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp } }],
  });

describe('several signing identities of one instance', () => {
  it('fail at construction with the path of each problem (duplicate client_id, primary prefix that contradicts the instance)', async () => {
    const dev = await generateDevSigningKey();
    let error: unknown;
    try {
      build([{ ...dev.signing, clientIdPrefix: 'x509_san_dns' }, dev.signing, dev.signing]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['instances.0.signing.0.clientIdPrefix', 'instances.0.signing.2']);
  });

  it('the primary signs redirect request objects; a multi-signed DC API request carries every identity in order', async () => {
    const first = await generateDevSigningKey({ dnsName: 'one.example' });
    const second = await generateDevSigningKey({ dnsName: 'two.example' });
    const authorizer = build([first.signing, second.signing], { clientIdPrefix: 'x509_san_dns' });
    try {
      const redirect = (await authorizer.createAuthorization('main', { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })) as { authorizationId: string; authorizeUrl: string };
      expect(new URL(redirect.authorizeUrl.replace('openid4vp://', 'https://w.invalid/')).searchParams.get('client_id')).toBe('x509_san_dns:one.example');
      const jwt = await authorizer.getRequestObject(redirect.authorizationId);
      expect(decodeProtectedHeader(jwt).x5c).toEqual([first.leafCertificatePem.replace(/-----[^-]+-----|\s/g, '')]);
      const multi = (await authorizer.createAuthorization('main', {
        responseMode: 'dc_api.jwt',
        protocol: 'openid4vp-v1-multisigned',
        expectedOrigins: ['https://rp.example'],
        query: { type: 'DCQL', dcql: DCQL_SD_JWT },
      })) as { digitalCredentialGetRequest: { data: { signatures: { protected: string }[] } } };
      const headers = multi.digitalCredentialGetRequest.data.signatures.map((s) => JSON.parse(Buffer.from(s.protected, 'base64url').toString()) as Record<string, unknown>);
      expect(headers.map((h) => h.client_id)).toEqual(['x509_san_dns:one.example', 'x509_san_dns:two.example']);
      expect(headers.every((h) => h.typ === 'oauth-authz-req+jwt' && h.alg === 'ES256')).toBe(true);
    } finally {
      await authorizer.close();
    }
  });
});
