import { describe, expect, it } from 'vitest';
import type { ParsedPresentation, PolicyResult, PresentationDefinition } from '@vp-authorizer/core';
import { localValidator } from '../index.js';
import { jwtVp, mdoc, sdJwt } from '../__fixtures__/presentations.js';

const signal = new AbortController().signal;
const run = (presentationDefinition: PresentationDefinition, presentations: ParsedPresentation[]) =>
  localValidator().validate({ authorizationId: 'a', query: { type: 'DIF.PresentationExchange', presentationDefinition }, presentations }, { signal });
const at = (results: PolicyResult[], path: (string | number)[]) => results.find((r) => JSON.stringify(r.path) === JSON.stringify(path));
const errorCodes = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error?.code);

const vc = { type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { given_name: 'E', degree: { type: 'BSc' }, birthdate: '1990-02-01' } };
const degree = (fields: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'degree', format: { jwt_vp_json: { alg: ['ES256'] } }, constraints: { fields }, ...extra });

describe('localValidator — Presentation Exchange', () => {
  it('passes when every field resolves (trying paths in order, on the credential or the JWT payload)', async () => {
    const definition = {
      id: 'pd',
      input_descriptors: [
        degree([
          { path: ['$.credentialSubject.given_name'] },
          { path: ['$.nope', '$.vc.credentialSubject.degree.type'], filter: { type: 'string', enum: ['BSc', 'MSc'] } },
          { path: ['$.type'], filter: { type: 'array', contains: { const: 'UniversityDegree' } } },
          { path: ['$.credentialSubject.birthdate'], filter: { type: 'string', format: 'date', formatMaximum: '2007-01-01' } },
          { path: ['$.credentialSubject.nickname'], optional: true },
        ]),
      ],
    };
    const results = await run(definition, [jwtVp('degree', [vc], { format: 'jwt_vp_json' })]);
    expect(errorCodes(results)).toEqual([]);
    expect(at(results, [])?.data).toMatchObject({ satisfied: true, validDescriptorIds: ['degree'] });
  });

  it('fails a field whose values do not pass the filter, without echoing values', async () => {
    const definition = { id: 'pd', input_descriptors: [degree([{ path: ['$.credentialSubject.birthdate'], filter: { type: 'string', format: 'date', formatMaximum: '1980-01-01' } }])] };
    const results = await run(definition, [jwtVp('degree', [vc], { format: 'jwt_vp_json' })]);
    expect(at(results, ['degree', 0])?.error).toMatchObject({ code: 'presentation_exchange.fields_unsatisfied', errors: [{ pointer: '/input_descriptors/0/constraints/fields/0' }] });
    expect(at(results, [])?.error?.code).toBe('presentation_exchange.unsatisfied');
    expect(JSON.stringify(results)).not.toContain('1990-02-01');
  });

  it('rejects filter expressions and unsupported filter keywords instead of evaluating them', async () => {
    const script = await run({ id: 'pd', input_descriptors: [degree([{ path: ['$.credentialSubject[?(@.given_name)]'] }])] }, [jwtVp('degree', [vc], { format: 'jwt_vp_json' })]);
    expect(at(script, ['degree', 0])?.error?.code).toBe('presentation_exchange.unsupported_jsonpath');
    const schema = await run({ id: 'pd', input_descriptors: [degree([{ path: ['$.credentialSubject'], filter: { type: 'object', required: ['given_name'] } }])] }, [jwtVp('degree', [vc], { format: 'jwt_vp_json' })]);
    expect(at(schema, ['degree', 0])?.error?.code).toBe('presentation_exchange.unsupported_filter');
  });

  it.each(['is_holder', 'subject_is_issuer', 'same_subject'])('fails closed on the unsupported constraint %s instead of ignoring it', async (key) => {
    const value = key === 'subject_is_issuer' ? 'required' : [{ field_id: ['f1'], directive: 'required' }];
    const definition = { id: 'pd', input_descriptors: [degree([{ id: 'f1', path: ['$.credentialSubject.given_name'] }], { constraints: { fields: [{ id: 'f1', path: ['$.credentialSubject.given_name'] }], [key]: value } })] };
    const results = await run(definition, [jwtVp('degree', [vc], { format: 'jwt_vp_json' })]);
    expect(at(results, ['degree', 0])?.error).toMatchObject({ code: 'presentation_exchange.unsupported_constraint', errors: [{ pointer: `/input_descriptors/0/constraints/${key}` }] });
    expect(at(results, [])?.error?.code).toBe('presentation_exchange.unsatisfied');
  });

  it('checks descriptor ids and allowed formats (vc+sd-jwt and dc+sd-jwt are aliases)', async () => {
    const definition = { id: 'pd', input_descriptors: [degree([{ path: ['$.given_name'] }], { id: 'pid', format: { 'vc+sd-jwt': {} } })] };
    expect(errorCodes(await run(definition, [sdJwt('pid', { given_name: 'E' })]))).toEqual([]);
    const wrongFormat = await run(definition, [mdoc('pid', { ns: { given_name: 'E' } })]);
    expect(at(wrongFormat, ['pid', 0])?.error?.code).toBe('presentation_exchange.format_mismatch');
    const unknown = await run(definition, [sdJwt('pid', { given_name: 'E' }), sdJwt('ghost', { given_name: 'E' })]);
    expect(at(unknown, ['ghost', 0])?.error?.code).toBe('presentation_exchange.unknown_descriptor');
  });

  it('reads mdoc elements by namespace', async () => {
    const definition = { id: 'pd', input_descriptors: [{ id: 'mdl', format: { mso_mdoc: {} }, constraints: { fields: [{ path: ["$['org.iso.18013.5.1']['age_over_18']"], filter: { const: true } }] } }] };
    expect(errorCodes(await run(definition, [mdoc('mdl', { 'org.iso.18013.5.1': { age_over_18: true } })]))).toEqual([]);
    expect(errorCodes(await run(definition, [mdoc('mdl', { 'org.iso.18013.5.1': { age_over_18: false } })]))).toContain('presentation_exchange.fields_unsatisfied');
  });

  describe('submission_requirements', () => {
    const d = (id: string, group: string[]) => ({ id, group, constraints: { fields: [{ path: ['$.given_name'] }] } });
    const descriptors = [d('a', ['A']), d('b', ['A']), d('c', ['B'])];
    const answer = (...ids: string[]) => ids.map((id) => sdJwt(id, { given_name: 'E' }));
    const check = async (submission_requirements: Record<string, unknown>[], ids: string[]) => {
      const results = await run({ id: 'pd', input_descriptors: descriptors, submission_requirements }, answer(...ids));
      return at(results, [])?.error?.code ?? 'ok';
    };

    it('all / pick with count, min and max', async () => {
      expect(await check([{ rule: 'all', from: 'A' }], ['a', 'b'])).toBe('ok');
      expect(await check([{ rule: 'all', from: 'A' }], ['a'])).toBe('presentation_exchange.unsatisfied');
      expect(await check([{ rule: 'pick', count: 1, from: 'A' }], ['b'])).toBe('ok');
      expect(await check([{ rule: 'pick', count: 1, from: 'A' }], ['a', 'b'])).toBe('presentation_exchange.unsatisfied');
      expect(await check([{ rule: 'pick', min: 1, max: 2, from: 'A' }], ['a', 'b'])).toBe('ok');
      expect(await check([{ rule: 'pick', min: 2, from: 'A' }], ['a'])).toBe('presentation_exchange.unsatisfied');
    });

    it('from_nested', async () => {
      const nested = [{ rule: 'pick', count: 1, from_nested: [{ rule: 'all', from: 'A' }, { rule: 'all', from: 'B' }] }];
      expect(await check(nested, ['c'])).toBe('ok');
      expect(await check(nested, ['a', 'b'])).toBe('ok');
      expect(await check(nested, ['a'])).toBe('presentation_exchange.unsatisfied');
    });

    it('without submission_requirements every descriptor is required', async () => {
      expect(await check([], ['a', 'b', 'c'])).toBe('ok');
      expect(await check([], ['a', 'b'])).toBe('presentation_exchange.unsatisfied');
    });
  });
});
