// signing: { signer } — a key the authorizer never holds (what an HSM or a KMS adapter provides),
// exercised with a WebCrypto key that is not extractable, over real HTTP.
import { webcrypto, createPrivateKey } from 'node:crypto';
import { compactVerify, flattenedVerify, importX509 } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, createKeySigner, type RequestSigner } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DCQL_SD_JWT, createDcqlAuthorization, fetchRequestObject, startAuthorizer } from './__fixtures__/test-authorizer.js';
import { selfSignedSigningInput } from '../src/request/__fixtures__/request-fixtures.js';

type Dev = Awaited<ReturnType<typeof generateDevSigningKey>>;

/** A signer over a non-extractable WebCrypto key: the raw r || s is what WebCrypto's ECDSA answers. */
async function webCryptoSigner(dev: Dev): Promise<RequestSigner & { calls: number }> {
  const key = await webcrypto.subtle.importKey('jwk', dev.signing.privateKey as JsonWebKey, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const signer = {
    alg: 'ES256' as const,
    certificateChain: [dev.leafCertificatePem],
    calls: 0,
    async sign(data: Uint8Array) {
      signer.calls++;
      return new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data));
    },
  };
  return signer;
}

const leafKey = (dev: Dev) => importX509(dev.leafCertificatePem, 'ES256');

describe('request objects signed through a RequestSigner', () => {
  it('sign redirect request objects and multi-signed DC API requests that verify under the leaf certificate', async () => {
    const dev = await generateDevSigningKey();
    const second = await generateDevSigningKey({ dnsName: 'second.example' });
    const signer = await webCryptoSigner(dev);
    const env = await startAuthorizer({ instance: { signing: [{ signer, trustAnchor: dev.rootCertificatePem }, { signer: createKeySigner(second.signing) }] } });
    try {
      const { json } = await createDcqlAuthorization(env.api);
      const { res, jwt } = await fetchRequestObject(json.authorizeUrl!);
      expect(res.status).toBe(200);
      const { protectedHeader } = await compactVerify(jwt, await leafKey(dev));
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt' });

      const multi = await env.api('/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-multisigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_SD_JWT } }),
      });
      const body = (await multi.json()) as { digitalCredentialGetRequest: { data: { payload: string; signatures: { protected: string; signature: string }[] } } };
      const { payload, signatures } = body.digitalCredentialGetRequest.data;
      expect(signatures).toHaveLength(2);
      await flattenedVerify({ payload, ...signatures[0]! }, await leafKey(dev));
      await flattenedVerify({ payload, ...signatures[1]! }, await leafKey(second));
      // The probe at load, the request object, the first multi-signed signature: nothing else.
      expect(signer.calls).toBe(3);
      const jwks = (await (await fetch(`${env.base}/openid4/vp/v1_0/jwks`)).json()) as { keys: { x5c: string[] }[] };
      expect(jwks.keys.map((k) => k.x5c[0])).toContain(dev.leafCertificatePem.replace(/-----[^-]+-----|\s/g, ''));
    } finally {
      await env.close();
    }
  });

  it('answer 503 signing.unavailable with Retry-After when the signer hangs, within its timeout, and change nothing', async () => {
    const dev = await generateDevSigningKey();
    const working = await webCryptoSigner(dev);
    let hang = false;
    const signer: RequestSigner = { ...working, sign: (data) => (hang ? new Promise<Uint8Array>(() => {}) : working.sign(data)) };
    const env = await startAuthorizer({ instance: { signing: { signer, timeoutMs: 100 } } });
    try {
      const { json } = await createDcqlAuthorization(env.api);
      hang = true;
      const { res, jwt } = await fetchRequestObject(json.authorizeUrl!);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(JSON.parse(jwt)).toMatchObject({ error: 'temporarily_unavailable' });
      const status = await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`);
      expect(await status.json()).toEqual({ status: 'created' });
      hang = false;
      expect((await fetchRequestObject(json.authorizeUrl!)).res.status).toBe(200);
    } finally {
      await env.close();
    }
  });

  it('answer 503 for a signer that throws, without its message, and try the probe again on the next request', async () => {
    const dev = await generateDevSigningKey();
    const working = await webCryptoSigner(dev);
    let down = true;
    const signer: RequestSigner = { ...working, sign: (data) => (down ? Promise.reject(new Error('CKR_DEVICE_REMOVED pin=123456')) : working.sign(data)) };
    const env = await startAuthorizer({ instance: { signing: { signer } } });
    try {
      const refused = await createDcqlAuthorization(env.api);
      expect(refused.res.status).toBe(503);
      expect(refused.res.headers.get('retry-after')).toBe('1');
      expect(JSON.stringify(refused.json)).not.toContain('123456');
      down = false;
      const { res, json } = await createDcqlAuthorization(env.api);
      expect(res.status).toBe(201);
      expect((await fetchRequestObject(json.authorizeUrl!)).res.status).toBe(200);
    } finally {
      await env.close();
    }
  });

  it('refuse a signer whose key is not the leaf certificate\'s, or that answers DER instead of r || s, naming the fix', async () => {
    const dev = await generateDevSigningKey();
    const other = await generateDevSigningKey();
    const wrongKey = { ...(await webCryptoSigner(other)), certificateChain: [dev.leafCertificatePem] };
    const key = createPrivateKey({ key: dev.signing.privateKey as never, format: 'jwk' });
    const der: RequestSigner = { alg: 'ES256', certificateChain: [dev.leafCertificatePem], sign: async (data) => (await import('node:crypto')).sign('sha256', data, key) };
    for (const signer of [wrongKey, der]) {
      const env = await startAuthorizer({ instance: { signing: { signer } } });
      try {
        await expect(env.authorizer.ready()).rejects.toBeInstanceOf(ConfigError);
      } finally {
        await env.close();
      }
    }
    const derEnv = await startAuthorizer({ instance: { signing: { signer: der } } });
    try {
      // Found on a request, the mistake answers 500 (the operator's to fix; the ConfigError goes to the logs), never a signature a wallet cannot check.
      const { res } = await createDcqlAuthorization(derEnv.api);
      expect(res.status).toBe(500);
    } finally {
      await derEnv.close();
    }
  });

  it('refuse at construction a signer beside a private key, a signer without its chain, and a timeout out of range', async () => {
    const dev = await generateDevSigningKey();
    const signer = await webCryptoSigner(dev);
    const paths = async (signing: unknown) => {
      try {
        await startAuthorizer({ instance: { signing: signing as never } });
      } catch (error) {
        return (error as ConfigError).issues.map((i) => i.path);
      }
      return [];
    };
    expect(await paths({ signer, privateKey: dev.signing.privateKey })).toEqual(['instances.0.signing']);
    expect(await paths({ signer: { ...signer, certificateChain: [] } })).toEqual(['instances.0.signing.signer.certificateChain']);
    expect(await paths({ signer: { ...signer, alg: 'RS256' } })).toEqual(['instances.0.signing.signer.alg']);
    expect(await paths({ signer, timeoutMs: 0 })).toEqual(['instances.0.signing.timeoutMs']);
  });

  it('apply the HAIP signing rules to a signer as to a key (a self-signed leaf is refused)', async () => {
    const self = await selfSignedSigningInput('self.example');
    const signer = createKeySigner(self);
    const env = await startAuthorizer({ instance: { signing: { signer } } });
    try {
      const { res, json } = await createDcqlAuthorization(env.api, { profile: 'haip' });
      expect(res.status).toBe(400);
      expect(json.type).toContain('haip.certificate_chain');
    } finally {
      await env.close();
    }
  });
});
