#!/usr/bin/env node
// CPU time of expanding W3C credential types for DCQL `type_values` (localValidator().validate
// with one ldp_vc presentation), against the match-budget units it is charged: ns per unit should
// stay within the budget's 30–100 ns per unit. Each credential differs (no memo or context cache
// hit): bundled contexts by URL, a plain embedded context of 250 terms (the document limits allow 256), 20 scoped contexts. The
// cost of the same validation without type_values is subtracted.
import { isMain, printJson } from './lib/main.mjs';

const V2 = 'https://www.w3.org/ns/credentials/v2';
const UNITS = 30_000;
const UNITS_PER_CHARACTER = 10;
const UNITS_PER_EMBEDDED_CONTEXT = 40_000;
const VC = 'https://www.w3.org/2018/credentials#VerifiableCredential';

const cases = {
  bundledByUrl: (n) => ({ context: [V2, 'https://www.w3.org/ns/credentials/undefined-terms/v2'], embedded: 0, type: ['VerifiableCredential', `Person${n}`] }),
  plain250Terms: (n) => ({ context: [V2, Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`t${i}`, { '@id': `https://e.example/${n}/t${i}`, '@type': '@id' }]))], embedded: 1, type: ['VerifiableCredential', 't1'] }),
  scoped20: (n) => ({ context: [V2, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`t${i}`, { '@id': `https://e.example/${n}/t${i}`, '@context': { [`u${i}`]: `https://e.example/u${i}` } }]))], embedded: 21, type: ['VerifiableCredential', 't1'] }),
};

export async function run({ iterations = Number(process.env.BENCH_TYPES_ITERATIONS ?? 30) } = {}) {
  const { localValidator } = await import('@vp-authorizer/local');
  const validator = localValidator();
  const signal = new AbortController().signal;
  const validate = (credential, meta = { type_values: [[VC]] }) =>
    validator.validate(
      {
        authorizationId: 'a',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'p', format: 'ldp_vc', meta, require_cryptographic_holder_binding: false }] } },
        presentations: [{ kind: 'ldp', path: ['p', 0], queryId: 'p', index: 0, format: 'ldp_vc', raw: credential }],
      },
      { signal },
    );
  await validate({ '@context': [V2], type: ['VerifiableCredential'] }); // loads jsonld and processes the bundled context once
  // The same validation without type_values: what a response costs without expansion.
  const baseStart = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await validate({ '@context': [V2], type: ['VerifiableCredential'], credentialSubject: {} }, {});
  const base = process.cpuUsage(baseStart);
  const baseNs = ((base.user + base.system) * 1000) / iterations;
  const results = { withoutTypeValues: { msPerCredential: +(baseNs / 1e6).toFixed(2) } };
  let seq = 0;
  for (const [name, make] of Object.entries(cases)) {
    let units = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) {
      const { context, embedded, type } = make(seq++);
      const credential = { '@context': context, type, credentialSubject: {} };
      units += UNITS + JSON.stringify({ '@context': context, type }).length * UNITS_PER_CHARACTER + embedded * UNITS_PER_EMBEDDED_CONTEXT;
      const out = await validate(credential);
      if (out.some((r) => r.error)) throw new Error(`${name}: ${JSON.stringify(out.find((r) => r.error).error)}`);
    }
    const { user, system } = process.cpuUsage(start);
    const ns = (user + system) * 1000 - baseNs * iterations;
    results[name] = { msPerCredential: +(ns / iterations / 1e6).toFixed(2), unitsPerCredential: Math.round(units / iterations), nsPerUnit: +(ns / units).toFixed(1) };
  }
  return { kind: 'type-expansion', iterations, results, goal: 'nsPerUnit ≤ 100 in every case' };
}

if (isMain(import.meta.url)) printJson(await run());
