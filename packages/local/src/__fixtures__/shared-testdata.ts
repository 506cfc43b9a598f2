import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The public test data (W3C Data Integrity contexts and vectors) lives outside the repository,
 * in a `shared/testdata` folder beside it (CI) or beside one of its parent folders.
 */
function testdataFolder(): string {
  let at = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dirname(at), 'shared', 'testdata');
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) throw new Error('shared/testdata not found beside the repository or any parent folder; these tests need the public test data');
    at = dirname(at);
  }
}

export const sharedTestdata = (...path: string[]): string => join(testdataFolder(), ...path);
export const readSharedJson = <T = Record<string, unknown>>(...path: string[]): T => JSON.parse(readFileSync(sharedTestdata(...path), 'utf8')) as T;
