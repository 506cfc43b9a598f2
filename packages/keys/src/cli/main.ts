#!/usr/bin/env node
import { DEV_COMMANDS_HINT, devCommand } from './dev-commands.js';
import { KEYS_USAGE, keysCommand } from './keys-command.js';

const USAGE = `Usage: vp-authorizer <command> [options]

Commands:
  keys    write a root CA and a HAIP 1.0 request-signing certificate (see: keys --help)
${DEV_COMMANDS_HINT}
`;

const [command, ...rest] = process.argv.slice(2);
const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };

async function main(): Promise<number> {
  if (command === 'keys') return keysCommand(rest, io);
  if (command === 'issuer' || command === 'wallet') return devCommand([command, ...rest], io);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(`${USAGE}\n${KEYS_USAGE}`);
    return command === undefined ? 2 : 0;
  }
  io.err(`Unknown command: ${command}\n\n${USAGE}`);
  return 2;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    io.err(`vp-authorizer: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
