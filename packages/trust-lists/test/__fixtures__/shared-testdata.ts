import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Public test data (the EU LoTL, AAMVA's VICAL) kept outside the repository, in a `shared/testdata`
 * folder beside the clone (CI lays it there) or beside one of its parent folders. Fails loudly
 * when there is none: these tests never skip.
 */
function testdataFolder(): string {
  let at = fileURLToPath(new URL('../../../..', import.meta.url));
  for (;;) {
    const candidate = join(dirname(at), 'shared', 'testdata');
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) throw new Error('shared/testdata not found beside the repository or any parent folder; these tests need the public test data');
    at = dirname(at);
  }
}

export const sharedTestdata = (name: string): Buffer => readFileSync(join(testdataFolder(), name));
