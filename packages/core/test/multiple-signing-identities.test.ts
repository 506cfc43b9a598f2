// An instance with several signing identities (signing as an array), as createAuthorizer sees it.
import { createHash, X509Certificate } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DCQL_SD_JWT } from './__fixtures__/test-authorizer.js';
import { selfSignedSigningInput } from '../src/request/__fixtures__/request-fixtures.js';

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

  it('refuse a HAIP request when any identity breaks a HAIP signing rule, not only the primary (judged from the certificates at construction)', async () => {
    const compliant = await generateDevSigningKey();
    const selfSigned = await selfSignedSigningInput('second.example');
    const authorizer = build([compliant.signing, selfSigned]);
    try {
      const haip = { profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } };
      await expect(authorizer.createAuthorization('main', haip)).rejects.toMatchObject({
        code: 'haip.certificate_chain',
        errors: [{ code: 'haip.certificate_chain', detail: 'HAIP forbids a self-signed request-signing certificate (signing identity 1)' }],
      });
      // Without the HAIP profile the same instance serves requests signed by its primary.
      await expect(authorizer.createAuthorization('main', { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })).resolves.toMatchObject({ authorizationId: expect.any(String) });
    } finally {
      await authorizer.close();
    }
    const both = build([compliant.signing, (await generateDevSigningKey()).signing]);
    try {
      await expect(both.createAuthorization('main', { profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })).resolves.toMatchObject({ authorizationId: expect.any(String) });
    } finally {
      await both.close();
    }
  });

  it('publish every identity: each key once in /jwks, every distinct anchor in the trust-anchor answer', async () => {
    const first = await generateDevSigningKey({ dnsName: 'one.example' });
    const second = await generateDevSigningKey({ dnsName: 'two.example' });
    const authorizer = build([first.signing, { ...first.signing, clientIdPrefix: 'x509_san_dns' }, second.signing]);
    const get = (path: string, key?: string) =>
      authorizer.fetch(new Request(`https://verifier.example${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }));
    try {
      const kidOf = (pem: string) => createHash('sha256').update(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64')).digest('base64url');
      const jwks = (await (await get('/openid4/vp/v1_0/jwks')).json()) as { keys: { kid: string; kty: string; crv: string; x: string; y: string; d?: string }[] };
      // The first two identities share a key (one leaf under two prefixes): listed once.
      expect(jwks.keys.map((k) => k.kid)).toEqual([kidOf(first.leafCertificatePem), kidOf(second.leafCertificatePem)]);
      expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
      // Each key is its leaf certificate's public key, and a second read answers the same.
      const leafKey = (pem: string) => new X509Certificate(pem).publicKey.export({ format: 'jwk' });
      expect(jwks.keys.map(({ kty, crv, x, y }) => ({ kty, crv, x, y }))).toEqual([leafKey(first.leafCertificatePem), leafKey(second.leafCertificatePem)]);
      expect(await (await get('/openid4/vp/v1_0/jwks')).json()).toEqual(jwks);
      const anchor = (await (await get('/instances/oid4vp-trust-anchor', 'k-123456789')).json()) as { certificate: string; certificates: string[] };
      expect(anchor.certificate.trim()).toBe(first.rootCertificatePem.trim());
      expect(anchor.certificates.map((pem) => pem.trim())).toEqual([first.rootCertificatePem.trim(), second.rootCertificatePem.trim()]);
    } finally {
      await authorizer.close();
    }
  });
});
