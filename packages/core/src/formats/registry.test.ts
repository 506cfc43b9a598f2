import { describe, expect, it } from 'vitest';
import { formatParameters } from '../request/client-metadata.js';
import { ES256_ONLY } from '../request/accepted-algorithms.js';
import { FORMATS, allowedUnderHaip, dispatchByFamily, formatDescriptor, formatNames, haipFormatIds, isSupportedFormat, presentationFormat, sameFormat } from './registry.js';
import type { ParsedLdp, ParsedPresentation } from '../model/parsed-presentation.js';

const ldpPresentation = (format: string): ParsedLdp => ({ kind: 'ldp', path: ['q', 0], queryId: 'q', index: 0, format, raw: {} });

describe('the format registry', () => {
  it('decodes exactly the format names the authorizer accepted before formats had descriptors', () => {
    const names = FORMATS.flatMap(formatNames).sort();
    expect(names).toEqual(['dc+sd-jwt', 'jwt_vc', 'jwt_vc_json', 'jwt_vc_json-ld', 'jwt_vp', 'jwt_vp_json', 'ldp', 'ldp_vc', 'ldp_vp', 'mso_mdoc', 'vc+sd-jwt'].sort());
  });

  it('treats the pre-1.0 name vc+sd-jwt as the same format as dc+sd-jwt, and distinct W3C names as distinct', () => {
    expect(formatDescriptor('vc+sd-jwt')).toBe(formatDescriptor('dc+sd-jwt'));
    expect(sameFormat('vc+sd-jwt', 'dc+sd-jwt')).toBe(true);
    expect(sameFormat('jwt_vc', 'jwt_vc_json')).toBe(false);
    expect(sameFormat('unknown', 'unknown')).toBe(true);
    expect(sameFormat('unknown', 'other')).toBe(false);
  });

  it('finds no format for object prototype names or non-strings a wallet may send', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 42, null, undefined]) {
      expect(formatDescriptor(name)).toBeUndefined();
      expect(isSupportedFormat(name)).toBe(false);
    }
  });

  it('advertises vp_formats_supported parameters for the same names and with the same parameters as before', () => {
    expect(formatParameters(ES256_ONLY)).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      'vc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
      jwt_vc_json: { alg_values: ['ES256'] },
      jwt_vp_json: { alg_values: ['ES256'] },
      jwt_vc: { alg_values: ['ES256'] },
      jwt_vp: { alg_values: ['ES256'] },
    });
  });

  it('allows under HAIP only dc+sd-jwt and mso_mdoc by their 1.0 identifiers, not the vc+sd-jwt alias', () => {
    expect(haipFormatIds()).toEqual(['dc+sd-jwt', 'mso_mdoc']);
    expect(allowedUnderHaip('dc+sd-jwt')).toBe(true);
    expect(allowedUnderHaip('mso_mdoc')).toBe(true);
    expect(allowedUnderHaip('vc+sd-jwt')).toBe(false);
    expect(allowedUnderHaip('jwt_vc_json')).toBe(false);
  });

  it("hands a presentation to its family's handler only when its kind is one its format yields", () => {
    const handlers = { 'sd-jwt': () => 'sd-jwt', mdoc: () => 'mdoc', w3c: (p: ParsedPresentation) => `w3c:${p.kind}` };
    expect(dispatchByFamily(ldpPresentation('ldp_vc'), handlers, () => 'unsupported')).toBe('w3c:ldp');
    // An ldp object labelled as an SD-JWT or as a JWT format, or in no known format, reaches no handler.
    expect(dispatchByFamily(ldpPresentation('dc+sd-jwt'), handlers, () => 'unsupported')).toBe('unsupported');
    expect(dispatchByFamily(ldpPresentation('jwt_vc_json'), handlers, () => 'unsupported')).toBe('unsupported');
    expect(dispatchByFamily(ldpPresentation('made_up'), handlers, () => 'unsupported')).toBe('unsupported');
    expect(presentationFormat(ldpPresentation('ldp_vp'))?.id).toBe('ldp_vp');
  });
});
