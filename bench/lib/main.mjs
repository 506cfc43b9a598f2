// Each measurement file runs alone (`node bench/<kind>.mjs`, JSON on stdout) or from run.mjs.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function isMain(moduleUrl) {
  return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
}

export function printJson(result) {
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
