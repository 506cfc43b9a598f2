import { parseArgs } from 'node:util';
import { migrate } from './migrate.js';
import { toStoreError } from './to-store-error.js';

const USAGE = `usage: vp-authorizer-postgres migrate [--url <postgres://…>] [--schema <name>]

Creates or upgrades the tables of @vp-authorizer/postgres (idempotent; safe to run from several
processes at once). --url defaults to $POSTGRES_URL; --schema to public.`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { url: { type: 'string' }, schema: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'migrate') {
    console.error(USAGE);
    return 2;
  }
  const url = values.url ?? process.env.POSTGRES_URL;
  if (url === undefined || url === '') {
    console.error(`Pass --url or set POSTGRES_URL.\n\n${USAGE}`);
    return 2;
  }
  try {
    const result = await migrate(url, values.schema === undefined ? {} : { schema: values.schema });
    console.log(
      result.applied.length === 0
        ? `schema "${result.schema}" is up to date (version ${result.to})`
        : `schema "${result.schema}": applied ${result.applied.join(', ')} (version ${result.from} → ${result.to})`,
    );
    return 0;
  } catch (error) {
    // The error names what failed (connection, permission, newer schema); never the URL (it may hold a password).
    const mapped = toStoreError(error);
    console.error(`migrate failed: ${mapped instanceof Error ? mapped.message : String(mapped)}`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
