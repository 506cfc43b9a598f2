import { randomBytes } from 'node:crypto';

/**
 * POSTGRES_URL from scripts/with-postgres.mjs, or undefined after a loud warning saying why the
 * Postgres suites of `file` are skipped. Refuses anything but a loopback server: tests never leave the host.
 */
export function postgresUrlForTests(file: string): string | undefined {
  const url = process.env.POSTGRES_URL;
  if (url === undefined || url === '') {
    console.warn(
      `\n${'='.repeat(100)}\n  POSTGRES SUITE SKIPPED: POSTGRES_URL is not set; run the tests through \`node scripts/with-postgres.mjs <command>\` ` +
        `(it starts a private PostgreSQL cluster; install: apt-get install -y postgresql)\n  (skipped: ${file})\n${'='.repeat(100)}\n`,
    );
    return undefined;
  }
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`Postgres tests only talk to 127.0.0.1; POSTGRES_URL points at ${hostname}.`);
  return url;
}

/** A schema name no other test uses (a lower-case SQL identifier). */
export const testSchema = (): string => `vpa_test_${randomBytes(6).toString('hex')}`;
