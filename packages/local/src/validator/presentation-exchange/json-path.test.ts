import { describe, expect, it } from 'vitest';
import { evaluateJsonPath, parseJsonPath, UnsupportedJsonPathError } from './json-path.js';

const doc = { vc: { credentialSubject: { given_name: 'E', 'family-name': 'M', degrees: [{ type: 'BSc' }, { type: 'MSc' }] } } };
const run = (path: string) => evaluateJsonPath(doc, parseJsonPath(path));

describe('safe JSONPath subset', () => {
  it('supports $, .key, [\'key\'], ["key"], [n], [*] and .*', () => {
    expect(run('$')).toEqual([doc]);
    expect(run('$.vc.credentialSubject.given_name')).toEqual(['E']);
    expect(run("$['vc']['credentialSubject']['family-name']")).toEqual(['M']);
    expect(run('$["vc"].credentialSubject.degrees[1].type')).toEqual(['MSc']);
    expect(run('$.vc.credentialSubject.degrees[*].type')).toEqual(['BSc', 'MSc']);
    expect(run('$.vc.credentialSubject.degrees.*.type')).toEqual(['BSc', 'MSc']);
    expect(run('$.vc.credentialSubject.degrees[7]')).toEqual([]);
    expect(run('$.vc.missing.deeper')).toEqual([]);
  });

  it('never reads the prototype chain', () => {
    expect(run('$.constructor')).toEqual([]);
    expect(run("$['__proto__']")).toEqual([]);
  });

  it.each(['$..given_name', '$.vc[?(@.type=="x")]', '$.a[(@.length-1)]', '$.a[0:2]', '$.a[0,1]', 'vc.given_name', '$.a[-1]', "$['unterminated]"])('rejects %s', (path) => {
    expect(() => parseJsonPath(path)).toThrow(UnsupportedJsonPathError);
  });
});
