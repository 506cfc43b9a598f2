#!/usr/bin/env node
// Request signing through the RequestSigner interface: a key in this process (the default) against
// a P-256 key on a SoftHSM2 token (@vp-authorizer/pkcs11), measured three ways in the same run:
//   sign        — one signer.sign() at a time: latency per signature (mean, p50, p99)
//   concurrent  — signatures kept in flight for a fixed time, per session count and concurrency:
//                 what the binding sustains (signatures per second); sessions up to one fewer than
//                 Node's worker threads (UV_THREADPOOL_SIZE), as the signer allows
//   request     — authorizer.getRequestObject() per request (build, sign, store write), one at a time
// Needs softhsm2-util and the library at SOFTHSM2_MODULE (default /usr/lib/softhsm/libsofthsm2.so).
// BENCH_SIGN_COUNT (2000), BENCH_SIGN_SECONDS (2 per concurrent cell), BENCH_SIGN_REQUESTS (500).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthorizer, createKeySigner, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { generatePkcs11Key, openPkcs11Signer } from '@vp-authorizer/pkcs11';
import { isMain, printJson } from './lib/main.mjs';
import { missingTools } from './lib/tools.mjs';

const MODULE = process.env.SOFTHSM2_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';
const PIN = 'bench-pin-1234';
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function latency(sign, count) {
  const data = new TextEncoder().encode('eyJhbGciOiJFUzI1NiJ9.eyJub25jZSI6IngifQ');
  for (let i = 0; i < 100; i++) await sign(data);
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    await sign(data);
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  return { meanUs: round(times.reduce((a, b) => a + b, 0) / times.length), p50Us: round(pct(times, 0.5)), p99Us: round(pct(times, 0.99)) };
}

async function sustained(sign, concurrency, seconds) {
  const data = new TextEncoder().encode('eyJhbGciOiJFUzI1NiJ9.eyJub25jZSI6IngifQ');
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < until) {
      await sign(data);
      done++;
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return round(done / (Number(process.hrtime.bigint() - start) / 1e9), 0);
}

async function perRequest(signing, requests) {
  const authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'b', apiKeys: ['bench-key-0123456789'], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });
  await authorizer.ready();
  const body = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } };
  const ids = [];
  for (let i = 0; i < requests + 50; i++) ids.push((await authorizer.createAuthorization('b', body)).authorizationId);
  for (const id of ids.slice(0, 50)) await authorizer.getRequestObject(id);
  const times = [];
  for (const id of ids.slice(50)) {
    const t = process.hrtime.bigint();
    await authorizer.getRequestObject(id);
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  await authorizer.close();
  times.sort((a, b) => a - b);
  return { meanUs: round(times.reduce((a, b) => a + b, 0) / times.length), p50Us: round(pct(times, 0.5)), p99Us: round(pct(times, 0.99)) };
}

export async function run({ count = Number(process.env.BENCH_SIGN_COUNT ?? 2000), seconds = Number(process.env.BENCH_SIGN_SECONDS ?? 2), requests = Number(process.env.BENCH_SIGN_REQUESTS ?? 500) } = {}) {
  const missing = missingTools('softhsm2-util');
  if (missing) return { skipped: missing };
  const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const dir = mkdtempSync(join(tmpdir(), 'bench-softhsm-'));
  mkdirSync(join(dir, 'tokens'));
  writeFileSync(join(dir, 'softhsm2.conf'), `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = join(dir, 'softhsm2.conf');
  const signers = [];
  try {
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', 'bench', '--pin', PIN, '--so-pin', `${PIN}-so`], { stdio: 'pipe' });
    const { publicKey } = await generatePkcs11Key({ module: MODULE, token: { label: 'bench' }, pin: PIN, label: 'k' });
    const dev = await generateDevSigningKey();
    const leafForToken = await issueLeafFor(publicKey);
    const inProcess = createKeySigner(dev.signing);
    const open = async (sessions) => {
      const s = await openPkcs11Signer({ module: MODULE, token: { label: 'bench' }, pin: PIN, key: { label: 'k' }, certificateChain: [leafForToken], sessions });
      signers.push(s);
      return s;
    };
    // The signer's default: half of Node's worker threads.
    const defaultSessions = Math.floor(threads / 2);
    const token = await open(defaultSessions);
    const result = {
      sessions: defaultSessions,
      sign: { inProcess: await latency((d) => inProcess.sign(d), count), softhsm2: await latency((d) => token.sign(d), count) },
      concurrent: { inProcess: {}, softhsm2: {} },
      request: {
        inProcess: await perRequest(dev.signing, requests),
        softhsm2: await perRequest({ signer: token }, requests),
      },
    };
    for (const concurrency of [1, 4, 16, 64]) result.concurrent.inProcess[`c${concurrency}`] = await sustained((d) => inProcess.sign(d), concurrency, seconds);
    for (const sessions of [...new Set([1, defaultSessions, threads - 1])]) {
      const pooled = sessions === defaultSessions ? token : await open(sessions);
      result.concurrent.softhsm2[`sessions${sessions}`] = {};
      for (const concurrency of [1, 4, 16, 64]) result.concurrent.softhsm2[`sessions${sessions}`][`c${concurrency}`] = await sustained((d) => pooled.sign(d), concurrency, seconds);
    }
    return result;
  } finally {
    for (const s of signers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A leaf certificate for the public key held on the token, from a throwaway root (what an access CA would issue). */
async function issueLeafFor(publicKey) {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const { webcrypto } = await import('node:crypto');
  x509.cryptoProvider.set(webcrypto);
  const EC = { name: 'ECDSA', namedCurve: 'P-256' };
  const rootKeys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=bench.example',
    issuer: 'CN=bench root',
    publicKey: await webcrypto.subtle.importKey('spki', publicKey.export({ format: 'der', type: 'spki' }), EC, true, ['verify']),
    signingKey: rootKeys.privateKey,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true), new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'bench.example' }])],
  });
  return leaf.toString('pem');
}

if (isMain(import.meta.url)) printJson(await run());
