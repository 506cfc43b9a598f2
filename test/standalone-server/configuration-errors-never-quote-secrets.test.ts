// A configuration file holds API keys, secrets and store URLs: when the built command refuses it,
// the message names where the problem is (line and column, or the member) and never quotes the
// text or value it found there. Needs the packages built.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runServerToExit } from '../__fixtures__/server-process.js';

const SECRET = 'SECRETapikey0123456789';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-server-secret-errors-'));
});

describe('vp-authorizer-server configuration errors never quote a secret', () => {
  it('a JSON syntax error (an unquoted API key) is reported without the text around it', async () => {
    const path = join(dir, 'unquoted.json');
    writeFileSync(path, `{\n  "instance": {\n    "apiKeys": [${SECRET}]\n  }\n}\n`);
    const { code, stdout, stderr } = await runServerToExit(['--config', path], {});
    expect(code).toBe(1);
    expect(stderr).toContain(`The configuration file ${path} is not valid JSON (`);
    expect(stderr).not.toContain('SECRETapik');
    expect(stderr).not.toContain('"apiKeys"');
    expect(stdout).toBe('');
  }, 30_000);

  it('a JSON syntax error with a position is reported by line and column, not by the text there', async () => {
    const path = join(dir, 'trailing.json');
    writeFileSync(path, `{\n  "instance": {\n    "apiKeys": ["${SECRET}"],\n  }\n}\n`);
    const { code, stderr } = await runServerToExit(['--config', path], {});
    expect(code).toBe(1);
    expect(stderr).toContain(`The configuration file ${path} is not valid JSON (line 4, column 3)`);
    expect(stderr).not.toContain(SECRET.slice(0, 10));
  }, 30_000);

  it('a member of the wrong type (a numeric API key, a numeric store URL) names the member, not the value', async () => {
    const path = join(dir, 'numeric.json');
    writeFileSync(path, `{"instance": {"apiKeys": ["${SECRET}", 12345678901234567890]}, "store": {"type": "redis", "url": 98765432109876}}`);
    const { code, stderr } = await runServerToExit(['--config', path], {});
    expect(code).toBe(1);
    expect(stderr).toContain('instance.apiKeys.1: Invalid type: Expected string');
    expect(stderr).toContain('store.url: Invalid type: Expected string');
    expect(stderr).not.toContain('12345678901234567');
    expect(stderr).not.toContain('98765432109876');
    expect(stderr).not.toContain(SECRET);
  }, 30_000);
});
