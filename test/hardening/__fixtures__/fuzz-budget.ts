/**
 * One table of how many generated cases each property runs, so the suite total is known before
 * anything runs (asserted ≥ 100,000 in budget.test.ts) and the tally printed at the end can be
 * compared with the plan. FUZZ_SCALE (e.g. 0.1 locally, 10 for a nightly soak) scales all of them.
 */
const scale = Number(process.env.FUZZ_SCALE ?? '1') || 1;
const n = (runs: number) => Math.max(1, Math.round(runs * scale));

export const RUNS = {
  // parsers (synchronous, microseconds per case: most of the volume goes here)
  jwt: n(14_000),
  sdJwt: n(10_000),
  sdJwtStructured: n(4_000),
  mdoc: n(8_000),
  mdocStructured: n(4_000),
  cborToJson: n(6_000),
  createBody: n(8_000),
  createBodyStructured: n(4_000),
  peSubmission: n(6_000),
  walletMetadata: n(6_000),
  parseBodyBytes: n(8_000),
  parseBodyParsed: n(4_000),
  formatPolicy: n(8_000),
  // JWE with a real per-request key (async crypto, ~1 ms per case)
  jwe: n(1_500),
  jweValid: n(300),
  // authorizer.handle() in process
  routes: n(9_000),
  routesAuthed: n(3_000),
  walletResponses: n(1_200),
  dcApiResponses: n(400),
  // real HTTP on 127.0.0.1
  wire: n(1_500),
} as const;

export const PLANNED_TOTAL = Object.values(RUNS).reduce((a, b) => a + b, 0);

/** Stable seed per property name (override all with FUZZ_SEED to reproduce a CI run elsewhere). */
export function seedFor(name: string): number {
  const fixed = process.env.FUZZ_SEED;
  let h = fixed ? Number(fixed) | 0 : 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h | 0;
}
