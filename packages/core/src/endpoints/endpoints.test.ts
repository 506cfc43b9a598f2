import { describe, expect, it } from 'vitest';
import { MethodNotAllowedError, ROUTES, audienceOfPath, matchRoute } from '../http/routes.js';
import { ENDPOINTS } from './index.js';
import { responsesOf, rpErrorSchema, walletErrorSchema } from './error-bodies.js';

/** A concrete path for a template: `{authorizationId}` → `id-1`. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'id-1');

describe('the endpoint table', () => {
  it('routes every endpoint by its method and path template, with the path parameters decoded', () => {
    for (const endpoint of ENDPOINTS) {
      const { route, params } = matchRoute(endpoint.method, concrete(endpoint.path));
      expect(route.operationId).toBe(endpoint.operationId);
      expect(params).toEqual(endpoint.path.includes('{') ? ['id-1'] : []);
    }
    expect(matchRoute('GET', '/openid4/vp/v1_0/authorizations/a%2Fb/status').params).toEqual(['a/b']);
    expect(ROUTES).toHaveLength(ENDPOINTS.length);
  });

  it('has one operationId per endpoint and one endpoint per method and path', () => {
    expect(new Set(ENDPOINTS.map((e) => e.operationId)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
  });

  it('answers HEAD like GET where GET has no effect, 405 with the allowed methods for a known path, 404 for an unknown one', () => {
    expect(matchRoute('HEAD', '/health').route.operationId).toBe('getHealth');
    expect(() => matchRoute('DELETE', '/openid4/vp/v1_0/authorizations/x/jwt')).toThrow(MethodNotAllowedError);
    try {
      matchRoute('PUT', '/openid4/vp/v1_0/authorizations/x/status');
    } catch (error) {
      expect((error as MethodNotAllowedError).allow.sort()).toEqual(['GET', 'HEAD']);
    }
    // The request object's fetch has an effect: HEAD is refused there and left out of Allow.
    for (const method of ['PUT', 'HEAD']) {
      try {
        matchRoute(method, '/openid4/vp/v1_0/authorizations/x/jwt');
        expect.unreachable(`${method} must be refused`);
      } catch (error) {
        expect((error as MethodNotAllowedError).allow).toEqual(['GET', 'POST']);
      }
    }
    expect(() => matchRoute('GET', '/nope')).toThrow(expect.objectContaining({ code: 'request.route_not_found' }));
  });

  it('gives a path the error format of the endpoints serving it, whatever the method', () => {
    for (const endpoint of ENDPOINTS) {
      expect(audienceOfPath(concrete(endpoint.path)), endpoint.operationId).toBe(endpoint.audience === 'wallet' ? 'wallet' : 'rp');
    }
    expect(audienceOfPath('/unknown')).toBe('rp');
  });

  it('declares every error status in the format of its audience, plus 401 for RP and 400/413/415 for bodies', () => {
    for (const endpoint of ENDPOINTS) {
      const responses = responsesOf(endpoint);
      const errorSchemas = Object.entries(responses).filter(([status]) => Number(status) >= 400).map(([, spec]) => spec.schema);
      expect(new Set(errorSchemas), endpoint.operationId).toEqual(new Set([endpoint.audience === 'wallet' ? walletErrorSchema : rpErrorSchema]));
      expect('401' in responses, endpoint.operationId).toBe(endpoint.audience === 'rp');
      if (endpoint.body) expect(Object.keys(responses), endpoint.operationId).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
  });
});
