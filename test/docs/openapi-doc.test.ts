// docs/openapi.json is generated from the endpoint table; this test fails when they drift apart.
// Regenerate with: UPDATE_DOCS=1 pnpm exec vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, createAuthorizer, generateDevSigningKey, openApiDocument, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';

const file = new URL('../../docs/openapi.json', import.meta.url);
const render = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

describe('docs/openapi.json', () => {
  it('matches the document generated from the endpoint table', () => {
    if (process.env.UPDATE_DOCS) writeFileSync(file, render());
    expect(readFileSync(file, 'utf8')).toBe(render());
  });

  it('documents every endpoint once, under its hosted operationId, with its path parameters', () => {
    const doc = openApiDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations).toHaveLength(ENDPOINTS.length);
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // The names the hosted authorizer's document gives (wire-api.md section 1).
    expect(ids).toEqual(expect.arrayContaining(['getHealth', 'getTrustAnchorCertificate', 'getJwks', 'directPost', 'directPostJwt', 'dcApi', 'dcApiJwt', 'resolveResponseCode', 'createAuthorization', 'getAuthorizationRequestJwt', 'getWellKnownConfiguration', 'getAuthorizationStatus', 'getPolicyResponse', 'getCredentials']));
    for (const { path, op } of operations) {
      const declared = ((op.parameters ?? []) as { name: string; in: string }[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, path).toEqual([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    }
  });

  it('puts the API-key bearer scheme on exactly the relying-party operations', () => {
    const doc = openApiDocument();
    expect((doc.components as { securitySchemes: unknown }).securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const endpoint of ENDPOINTS) {
      const op = doc.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
      expect(op.security, endpoint.operationId).toEqual(endpoint.audience === 'rp' ? [{ apiKey: [] }] : []);
      if (endpoint.audience === 'rp') expect(Object.keys(op.responses as object), endpoint.operationId).toContain('401');
    }
  });

  it('is served at GET /openapi.json, public and cacheable, with the public base URL as server', async () => {
    const { signing } = await generateDevSigningKey();
    const authorizer = createAuthorizer({ publicBaseUrl: 'https://verifier.example/authz', sweepIntervalMs: 0, instances: [{ id: 'main', apiKeys: ['doc-key-0000000001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }] });
    try {
      const res = await authorizer.fetch(new Request('https://verifier.example/openapi.json'));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toMatch(/^public/);
      const served = (await res.json()) as Record<string, unknown>;
      expect(served).toEqual({ ...JSON.parse(render()), servers: [{ url: 'https://verifier.example/authz' }] });
    } finally {
      await authorizer.close();
    }
  });
});
