// External tools the benchmarks drive. A missing tool skips its measurement with a clear note
// (and how to install it) instead of failing later with an obscure error.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const INSTALL = { wrk: 'apt-get install -y wrk', 'redis-server': 'apt-get install -y redis-server', 'redis-benchmark': 'apt-get install -y redis-server (redis-benchmark ships with it)', taskset: 'apt-get install -y util-linux', 'softhsm2-util': 'apt-get install -y softhsm2' };

export function hasTool(name) {
  const probe = spawnSync(name, name === 'taskset' ? ['-V'] : ['--version'], { stdio: 'ignore' });
  return !probe.error;
}

/** Null when every tool is there, else the sentence explaining what is missing and how to add it. */
export function missingTools(...names) {
  const missing = names.filter((n) => !hasTool(n));
  return missing.length ? `${missing.join(', ')} not installed (${missing.map((n) => INSTALL[n] ?? n).join('; ')})` : null;
}

const scripts = new Map();
/** A wrk Lua script sending one fixed request (method, body, headers); cached per content. */
export function wrkScript({ method = 'GET', body, headers = {} }) {
  const text = [`wrk.method = "${method}"`, ...(body !== undefined ? [`wrk.body = '${body}'`] : []), ...Object.entries(headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`)].join('\n');
  if (!scripts.has(text)) {
    const file = join(mkdtempSync(join(tmpdir(), 'vpa-wrk-')), 'request.lua');
    writeFileSync(file, `${text}\n`);
    scripts.set(text, file);
  }
  return scripts.get(text);
}

/** wrk's time units. */
const SECONDS_PER = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/**
 * Run wrk (one thread) against `url`; async so servers in this process keep serving.
 * `cpu`: a core list for taskset, to keep wrk off the server's core where the machine allows.
 */
export async function wrk(url, { request, connections = 32, seconds = 5, cpu } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...(request ? ['-s', wrkScript(request)] : []), url];
  const [cmd, argv] = cpu !== undefined ? ['taskset', ['-c', String(cpu), 'wrk', ...args]] : ['wrk', args];
  const { stdout } = await promisify(execFile)(cmd, argv, { encoding: 'utf8' });
  const done = /(\d+) requests in ([\d.]+)(\w+),/.exec(stdout);
  const p99 = /99%\s+([\d.]+)(\w+)/.exec(stdout);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    requests: Number(done?.[1] ?? 0),
    seconds: done ? (Number(done[2]) * SECONDS_PER[done[3]]) : NaN,
    p99: p99 ? `${p99[1]}${p99[2]}` : '?',
    p99Ms: p99 ? (Number(p99[1]) * SECONDS_PER[p99[2]]) * 1000 : NaN,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
    errors: /Socket errors:[^\n]*/.exec(stdout)?.[0] ?? null,
  };
}
