import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CommandOutput } from './keys-command.js';

/** What this command uses of @vp-authorizer/testing (this package does not depend on it). */
interface TestingPackage {
  runDevCommand(argv: string[], io: CommandOutput): Promise<number>;
}

export const DEV_COMMANDS_HINT = `  issuer  save a test issuer root for local development (needs @vp-authorizer/testing)
  wallet  answer an authorizeUrl as a test wallet (needs @vp-authorizer/testing)`;

/**
 * `issuer` and `wallet` run the test wallet and issuer of @vp-authorizer/testing, a development
 * package with the wallet's libraries that a production install of this package never pulls in.
 * It is looked up from the project in the working directory (where it is a dev dependency), then
 * next to this package.
 */
export async function devCommand(argv: string[], io: CommandOutput): Promise<number> {
  const testing = await loadTesting();
  if (!testing) {
    io.err(`vp-authorizer ${argv[0]}: this command comes with @vp-authorizer/testing; install it in your project: npm install -D @vp-authorizer/testing`);
    return 1;
  }
  return testing.runDevCommand(argv, io);
}

async function loadTesting(): Promise<TestingPackage | undefined> {
  const specifier = '@vp-authorizer/testing';
  const from = [join(process.cwd(), 'package.json')];
  // Absent from the CommonJS build (no import.meta there); the working directory is enough then.
  if (typeof import.meta?.url === 'string' && import.meta.url !== '') from.push(import.meta.url);
  for (const base of from) {
    let manifestPath: string;
    try {
      manifestPath = createRequire(base).resolve(`${specifier}/package.json`);
    } catch {
      continue;
    }
    // Its ES module entry, as `import` would pick it.
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: { '.'?: { import?: { default?: string } } }; module?: string };
    const entry = manifest.exports?.['.']?.import?.default ?? manifest.module;
    if (!entry) continue;
    const loaded = (await import(pathToFileURL(join(dirname(manifestPath), entry)).href)) as Partial<TestingPackage>;
    if (typeof loaded.runDevCommand === 'function') return { runDevCommand: loaded.runDevCommand };
  }
  return undefined;
}
