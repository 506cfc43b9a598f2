import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder for generated lists; write() returns the path of the written file. */
export function tempFolder(): { write(name: string, bytes: Uint8Array | string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'trust-lists-'));
  return {
    write(name, bytes) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
  };
}
