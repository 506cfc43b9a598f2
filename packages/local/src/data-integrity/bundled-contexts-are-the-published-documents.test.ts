import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedTestdata } from '../__fixtures__/shared-testdata.js';
import { BUNDLED_CONTEXTS } from './bundled-contexts.js';

const bundled = (file: string) => readFileSync(new URL(`./contexts/${file}`, import.meta.url));

/** Which published file each bundled context URL is (shared/testdata/w3c-di/README.md names their sources). */
const PUBLISHED: Record<string, string> = {
  'https://www.w3.org/2018/credentials/v1': 'credentials-v1',
  'https://www.w3.org/ns/credentials/v2': 'credentials-v2',
  'https://www.w3.org/ns/credentials/undefined-terms/v2': 'credentials-undefined-terms-v2',
  'https://www.w3.org/ns/credentials/examples/v2': 'credentials-examples-v2',
  'https://w3id.org/security/data-integrity/v2': 'data-integrity-v2',
  'https://w3id.org/security/multikey/v1': 'multikey-v1',
  'https://w3id.org/security/suites/ed25519-2020/v1': 'ed25519-2020-v1',
  'https://www.w3.org/ns/credentials/status/v1': 'bitstring-status-list-v1',
  'https://w3id.org/citizenship/v4rc1': 'citizenship-v4rc1',
};
/** StatusList2021 comes from @digitalbazaar/vc-status-list-context 3.1.1 (contexts/vc-status-list-v1.jsonld). */
const STATUS_LIST_2021_SHA256 = '634d71c159289f068c96012e4511c657fdf82ac4231900081bda3ba24e2e1160';

describe('the bundled JSON-LD contexts', () => {
  it.each(Object.entries(PUBLISHED))('%s is the published document, byte for byte', (url, name) => {
    expect(bundled(`${name}.json`).equals(readFileSync(sharedTestdata('w3c-di', 'contexts', `${name}.jsonld`)))).toBe(true);
    expect(BUNDLED_CONTEXTS.get(url)).toEqual(JSON.parse(bundled(`${name}.json`).toString('utf8')));
  });

  it('https://w3id.org/vc/status-list/2021/v1 is the published document, by its SHA-256', () => {
    expect(createHash('sha256').update(bundled('status-list-2021-v1.json')).digest('hex')).toBe(STATUS_LIST_2021_SHA256);
    expect(BUNDLED_CONTEXTS.get('https://w3id.org/vc/status-list/2021/v1')).toEqual(JSON.parse(bundled('status-list-2021-v1.json').toString('utf8')));
  });

  it('every file in contexts/ is served, and nothing else is', () => {
    expect(readdirSync(new URL('./contexts/', import.meta.url)).sort()).toEqual([...Object.values(PUBLISHED).map((n) => `${n}.json`), 'status-list-2021-v1.json'].sort());
    expect([...BUNDLED_CONTEXTS.keys()].sort()).toEqual([...Object.keys(PUBLISHED), 'https://w3id.org/vc/status-list/2021/v1'].sort());
  });
});
