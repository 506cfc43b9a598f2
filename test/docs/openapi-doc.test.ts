// docs/openapi.json is generated from the endpoint table; this test fails when they drift apart.
// Regenerate with: UPDATE_DOCS=1 pnpm exec vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, createAuthorizer, openApiDocument, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';

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
    // The operationIds the hosted authorizer's OpenAPI document gives.
    expect(ids).toEqual(expect.arrayContaining(['getHealth', 'getTrustAnchorCertificate', 'getJwks', 'directPost', 'directPostJwt', 'dcApi', 'dcApiJwt', 'resolveResponseCode', 'createAuthorization', 'getAuthorizationRequestJwt', 'getWellKnownConfiguration', 'getAuthorizationStatus', 'getPolicyResponse', 'getCredentials']));
    for (const { path, op } of operations) {
      const declared = ((op.parameters ?? []) as { name: string; in: string }[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared, path).toEqual([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    }
  });

  it('keeps every operation of the hosted API: path, method, operationId, parameters, success status, required members', () => {
    const doc = openApiDocument();
    type Schema = { required?: string[]; anyOf?: Schema[]; oneOf?: Schema[]; $ref?: string };
    const required = (schema: Schema | undefined): string[][] =>
      !schema ? [] : schema.anyOf ?? schema.oneOf ? (schema.anyOf ?? schema.oneOf)!.flatMap(required) : [schema.required ?? []];
    const V = '/openid4/vp/v1_0';
    const A = '{authorizationId}';
    // From the hosted authorizer's OpenAPI document: what its clients rely on.
    const hosted: { method: string; path: string; operationId: string; success: string; query?: string[]; body?: string[]; answer?: string[] }[] = [
      { method: 'get', path: '/health', operationId: 'getHealth', success: '204' },
      { method: 'get', path: '/instances/oid4vp-trust-anchor', operationId: 'getTrustAnchorCertificate', success: '200', answer: ['anchorType', 'certificate'] },
      {
        method: 'get',
        path: `${V}/.well-known/openid-configuration`,
        operationId: 'getWellKnownConfiguration',
        success: '200',
        answer: ['authorization_endpoint', 'jwks_uri', 'scopes_supported', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported', 'request_object_signing_alg_values_supported', 'vp_formats_supported'],
      },
      { method: 'get', path: `${V}/jwks`, operationId: 'getJwks', success: '200', answer: ['keys'] },
      { method: 'post', path: `${V}/${A}/direct_post`, operationId: 'directPost', success: '200' },
      { method: 'post', path: `${V}/${A}/direct_post.jwt`, operationId: 'directPostJwt', success: '200', body: ['response'] },
      { method: 'post', path: `${V}/${A}/dc_api`, operationId: 'dcApi', success: '200', body: ['origin', 'digitalCredentialGetResponse'], answer: ['status'] },
      { method: 'post', path: `${V}/${A}/dc_api.jwt`, operationId: 'dcApiJwt', success: '200', body: ['origin', 'digitalCredentialGetResponse'], answer: ['status'] },
      { method: 'post', path: `${V}/response-code/resolve`, operationId: 'resolveResponseCode', success: '200', body: ['response_code'], answer: ['authorization_id', 'status'] },
      { method: 'post', path: `${V}/authorizations`, operationId: 'createAuthorization', success: '201', body: ['responseMode', 'query'], answer: ['authorizationId', 'expiresAt', 'nonce'] },
      { method: 'get', path: `${V}/authorizations/${A}/status`, operationId: 'getAuthorizationStatus', success: '200', answer: ['status'] },
      { method: 'get', path: `${V}/authorizations/${A}/jwt`, operationId: 'getAuthorizationRequestJwt', success: '200', query: ['wallet_metadata', 'wallet_nonce'] },
      { method: 'get', path: `${V}/authorizations/${A}/policy-response`, operationId: 'getPolicyResponse', success: '200', answer: ['authorizationId', 'data'] },
      { method: 'get', path: `${V}/authorizations/${A}/credentials`, operationId: 'getCredentials', success: '200', answer: ['authorizationId', 'credentials'] },
    ];
    for (const expected of hosted) {
      const op = doc.paths[expected.path]?.[expected.method] as
        | { operationId: string; parameters?: { name: string; in: string; required: boolean }[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }
        | undefined;
      expect(op?.operationId, `${expected.method} ${expected.path}`).toBe(expected.operationId);
      expect(Object.keys(op!.responses), expected.operationId).toContain(expected.success);
      // Query parameters stay optional, so a client that sends none keeps working.
      for (const name of expected.query ?? []) expect(op!.parameters, expected.operationId).toContainEqual(expect.objectContaining({ name, in: 'query', required: false }));
      // We require nothing the hosted API leaves out, and every variant keeps its required members.
      const bodyRequired = required(Object.values(op!.requestBody?.content ?? {})[0]?.schema);
      for (const variant of bodyRequired) expect(variant.every((m) => (expected.body ?? []).includes(m) || m === 'protocol'), `${expected.operationId} requires ${variant}`).toBe(true);
      const answer = required(Object.values(op!.responses[expected.success]!.content ?? {})[0]?.schema);
      for (const variant of expected.answer ? answer : []) expect(variant, expected.operationId).toEqual(expect.arrayContaining(expected.answer!));
    }
    // The hosted error body: `message` is the member its clients read.
    expect((doc.components as { schemas: { Error: Schema } }).schemas.Error.required).toContain('message');
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
