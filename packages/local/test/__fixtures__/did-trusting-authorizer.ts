import { randomBytes } from 'node:crypto';
import { createAuthorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestWallet, fetchHandlerTarget } from '@vp-authorizer/testing';
import type { DidWebHost } from '../../src/__fixtures__/did-web-host.js';

const V1 = '/openid4/vp/v1_0';

export interface PolicyResult {
  policy: string;
  data?: Record<string, unknown>;
  error?: { code?: string; type: string };
}

export interface Presented {
  status: string;
  /** The failed policies' codes (or types). */
  failed: string[];
  policies: PolicyResult[];
}

export interface DidTrustingAuthorizer {
  /** Create with one DCQL credential query, let the test wallet fetch the signed request, post `credential` over direct_post. */
  present(query: Record<string, unknown>, credential: unknown): Promise<Presented>;
  close(): Promise<void>;
}

/**
 * A real authorizer on 127.0.0.1 (the core's fetch handler on node:http, the HTTP contract's
 * reference target) with one instance judged by localValidator({ trustedIssuers }) and the local
 * verifier, which resolves did:web through `host` (real TLS on loopback).
 */
export async function startDidTrustingAuthorizer(host: DidWebHost, options: { trustedIssuers: string[]; trustAnchors?: string[] }): Promise<DidTrustingAuthorizer> {
  const apiKey = randomBytes(24).toString('base64url');
  const dev = await generateDevSigningKey();
  const target = await fetchHandlerTarget().start({ prefix: '' });
  const authorizer = createAuthorizer({
    publicBaseUrl: target.origin,
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'dids',
        apiKeys: [apiKey],
        signing: dev.signing,
        config: { openId4vp: { redirectUri: 'https://rp.example/callback' } },
        validator: localValidator({ trustedIssuers: options.trustedIssuers }),
        // The did:web host is on loopback: the outbound policy's escape hatch for tests, with a transport trusting its CA.
        verifier: localVerifier({ trustAnchors: options.trustAnchors ?? [], fetch: host.fetch, outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
  await authorizer.ready();
  target.attach(authorizer);

  const rp = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${target.origin}${V1}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return (await response.json()) as T;
  };

  return {
    async present(query, credential) {
      const created = await rp<{ authorizationId: string; authorizeUrl: string }>('POST', '/authorizations', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [query] } } });
      const wallet = await createTestWallet();
      const request = await wallet.receive(created.authorizeUrl);
      await wallet.submit({ responseMode: 'direct_post', responseUri: request.responseUri!, payload: {}, form: { vp_token: JSON.stringify({ c: [credential] }), ...(request.state ? { state: request.state } : {}) } });
      const status = (await rp<{ status: string }>('GET', `/authorizations/${created.authorizationId}/status`)).status;
      const policies = (await rp<{ data: PolicyResult[] }>('GET', `/authorizations/${created.authorizationId}/policy-response`)).data;
      return { status, failed: policies.filter((p) => p.error).map((p) => p.error!.code ?? p.error!.type), policies };
    },
    async close() {
      await authorizer.close();
      await target.close();
    },
  };
}
