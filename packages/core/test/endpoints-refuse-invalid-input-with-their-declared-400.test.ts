// Every endpoint of the table validates its body, path and query parameters with the schemas the
// OpenAPI document is built from: an invalid one answers the 400 the document declares for that
// operation, in the error format of its audience, before any record is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, openApiDocument, type Endpoint } from '@vp-authorizer/core';
import { createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

interface InvalidInput {
  /** What makes it invalid, for the test title. */
  why: string;
  contentType?: string;
  body?: string;
  query?: string;
  /** An authorization that exists, where the check needs a record (the request object's wallet_nonce). */
  needsAuthorization?: true;
}

// One invalid input per endpoint that takes a body or query parameters (keyed by operationId).
const INVALID: Record<string, InvalidInput> = {
  createAuthorization: { why: 'the query is missing', contentType: JSON_TYPE, body: JSON.stringify({ responseMode: 'direct_post' }) },
  resolveResponseCode: { why: 'response_code is not a string', contentType: JSON_TYPE, body: JSON.stringify({ response_code: 7 }) },
  dcApi: { why: 'vp_token is not an object of presentations', contentType: JSON_TYPE, body: JSON.stringify({ origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: 'x' } }) },
  dcApiJwt: { why: 'origin is missing', contentType: JSON_TYPE, body: JSON.stringify({ digitalCredentialGetResponse: { response: 'x' } }) },
  directPost: { why: 'a parameter appears twice', contentType: FORM_TYPE, body: 'vp_token=a&vp_token=b' },
  directPostJwt: { why: 'the response parameter appears twice', contentType: FORM_TYPE, body: 'response=a&response=b' },
  postAuthorizationRequestJwt: { why: 'wallet_nonce appears twice', contentType: FORM_TYPE, body: 'wallet_nonce=a&wallet_nonce=b' },
  getAuthorizationRequestJwt: { why: 'wallet_nonce holds a control character', query: 'wallet_nonce=%01', needsAuthorization: true },
};

const declaredResponses = (endpoint: Endpoint) => openApiDocument().paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.responses as Record<string, unknown> | undefined;
const takesInput = (endpoint: Endpoint) => endpoint.body !== undefined || endpoint.query !== undefined;

let env: Awaited<ReturnType<typeof startAuthorizer>>;
let existing: string;
beforeAll(async () => {
  env = await startAuthorizer();
  existing = (await createDcqlAuthorization(env.api)).json.authorizationId!;
});
afterAll(() => env?.close());

describe('the endpoint table validates its inputs', () => {
  it('has an invalid input for every endpoint that takes a body or query parameters, and no other', () => {
    expect(Object.keys(INVALID).sort()).toEqual(ENDPOINTS.filter(takesInput).map((e) => e.operationId).sort());
  });

  for (const endpoint of ENDPOINTS.filter(takesInput)) {
    const invalid = INVALID[endpoint.operationId]!;
    it(`${endpoint.method} ${endpoint.path}: ${invalid.why} → the declared 400`, async () => {
      expect(declaredResponses(endpoint)?.['400']).toBeDefined();
      const id = invalid.needsAuthorization ? existing : 'no-such-authorization';
      const path = endpoint.path.replace('{authorizationId}', id) + (invalid.query ? `?${invalid.query}` : '');
      const res = await env.api(path, {
        method: endpoint.method,
        ...(invalid.body !== undefined ? { body: invalid.body, headers: { 'content-type': invalid.contentType! } } : {}),
        key: endpoint.audience === 'rp' ? undefined : null,
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, unknown>;
      if (endpoint.audience === 'wallet') expect(body).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
      else expect(body).toMatchObject({ type: expect.stringMatching(/^request\.invalid_body$/), status: 400 });
    });
  }

  it('an endpoint whose only input is an {authorizationId} segment declares no 400: any segment is a valid id, an unknown one 404', async () => {
    const pathOnly = ENDPOINTS.filter((e) => !takesInput(e) && e.pathParams !== undefined);
    expect(pathOnly.length).toBeGreaterThan(0);
    for (const endpoint of pathOnly) {
      expect(declaredResponses(endpoint)?.['400'], endpoint.operationId).toBeUndefined();
    }
    expect((await env.api('/openid4/vp/v1_0/authorizations/%E2%9C%93%20odd/status')).status).toBe(404);
  });
});
