import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PresentationDefinition } from '../../model/authorization-record.js';
import { FormatFailure } from '../format-error.js';
import { parsePeVpToken } from './parse-pe-vp-token.js';
import { parsePresentation } from './parse-presentation.js';
import { buildDeviceResponse, buildSdJwt, es256Key, failure } from '../shared/test-fixtures.js';

// Count decodes: the module under test imports parsePresentation from this module.
vi.mock('./parse-presentation.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./parse-presentation.js')>();
  return { ...original, parsePresentation: vi.fn(original.parsePresentation) };
});
const decodes = vi.mocked(parsePresentation);

const descriptors = (n: number, format = 'dc+sd-jwt') => Array.from({ length: n }, (_, i) => ({ id: `d${i}`, format: { [format]: {} } }));
const definition = (n: number, format?: string): PresentationDefinition => ({ id: 'pd', input_descriptors: descriptors(n, format) });
const submission = (descriptor_map: unknown[]) => ({ id: 's', definition_id: 'pd', descriptor_map });

let sdJwt: string;
beforeAll(async () => {
  const issuer = await es256Key();
  sdJwt = (await buildSdJwt({ issuer })).sdJwt;
});
// Braces matter: a function returned from beforeEach is run as its teardown.
beforeEach(() => {
  decodes.mockClear();
});

describe('parsePeVpToken', () => {
  it('parses a vp_token once however many descriptor_map entries point at it', () => {
    const map = Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, format: 'dc+sd-jwt', path: '$' }));
    const { presentations, failures } = parsePeVpToken(sdJwt, submission(map), definition(6), {});
    expect(failures).toEqual([]);
    expect(decodes).toHaveBeenCalledTimes(1);
    // One presentation per descriptor (the validator judges each against its own), same decoded content.
    expect(presentations.map((p) => p.path)).toEqual(map.map((e) => [e.id, 0]));
    expect(presentations.map((p) => p.queryId)).toEqual(map.map((e) => e.id));
    const claims = presentations.map((p) => (p.kind === 'sd-jwt' ? p.claims : undefined));
    expect(new Set(claims).size).toBe(1);
  });

  it('decodes each distinct element once, and the same element again only under another format', () => {
    const mdl = buildDeviceResponse([{ docType: 'a', elements: [] }]);
    const def: PresentationDefinition = { id: 'pd', input_descriptors: [...descriptors(2), { id: 'm', format: { mso_mdoc: {} } }] };
    const { presentations } = parsePeVpToken(
      [sdJwt, mdl],
      submission([
        { id: 'd0', format: 'dc+sd-jwt', path: '$[0]' },
        { id: 'd1', format: 'dc+sd-jwt', path: '$[0]' },
        { id: 'm', format: 'mso_mdoc', path: '$[1]' },
      ]),
      def,
      {},
    );
    expect(decodes).toHaveBeenCalledTimes(2);
    expect(presentations.map((p) => [p.kind, p.path])).toEqual([
      ['sd-jwt', ['d0', 0]],
      ['sd-jwt', ['d1', 0]],
      ['mdoc', ['m', 0]],
    ]);
  });

  it('reports a bad shared element once', () => {
    const { presentations, failures } = parsePeVpToken(
      'garbage',
      submission([
        { id: 'd0', format: 'dc+sd-jwt', path: '$' },
        { id: 'd1', format: 'dc+sd-jwt', path: '$' },
      ]),
      definition(2),
      {},
    );
    expect(decodes).toHaveBeenCalledTimes(1);
    expect(presentations).toEqual([]);
    expect(failures.map((f) => [f.code, f.path])).toEqual([['format.sd_jwt_malformed', ['d0', 0]]]);
  });

  it('refuses more descriptor_map entries than the definition allows', () => {
    const map = Array.from({ length: 60 }, () => ({ id: 'd0', format: 'dc+sd-jwt', path: '$' }));
    const error = failure(() => parsePeVpToken(sdJwt, submission(map), definition(1), {}));
    expect(error.code).toBe('format.submission_invalid');
    expect(error.path).toEqual(['presentation_submission', 'descriptor_map']);
    expect(decodes).not.toHaveBeenCalled();
    expect(() => parsePeVpToken(sdJwt, submission(map.slice(0, 2)), definition(1), {})).toThrow(FormatFailure);
  });

  it('refuses an entry that maps the same input descriptor to the same element twice', () => {
    const entry = { id: 'd0', format: 'dc+sd-jwt', path: '$' };
    const { presentations, failures } = parsePeVpToken(sdJwt, submission([entry, entry]), definition(2), {});
    expect(presentations.map((p) => p.path)).toEqual([['d0', 0]]);
    expect(failures.map((f) => [f.code, f.path])).toEqual([['format.submission_invalid', ['presentation_submission', 'descriptor_map', 1]]]);
    expect(decodes).toHaveBeenCalledTimes(1);
  });
});
