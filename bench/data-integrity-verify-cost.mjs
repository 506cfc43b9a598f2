#!/usr/bin/env node
// CPU time to verify one Data Integrity credential with @vp-authorizer/local (`localVerifier().verify`
// on an ldp_vc presentation: document limits, contexts, DID resolution, the proof, validity)
// against the library's own call for the same credential in the same process
// (`@digitalbazaar/vc` verifyCredential with the same cryptosuite and a loader that hands over
// pre-built documents). Goal: ratio ≤ 1.2× per suite. Rounds alternate which side goes first;
// each side verifies `BENCH_DI_ITERATIONS` credentials per round in ten alternating slices
// (bbs-2023: 10, at ~100 ms each), after three warm-up rounds; the goal's ratio pools all rounds (their median is reported beside it).
import { isMain, printJson } from './lib/main.mjs';

const EXAMPLES_V2 = 'https://www.w3.org/ns/credentials/examples/v2';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({ iterations = Number(process.env.BENCH_DI_ITERATIONS ?? 100), rounds = Number(process.env.BENCH_DI_ROUNDS ?? 9) } = {}) {
  const vc = await import('@digitalbazaar/vc');
  const { DataIntegrityProof } = await import('@digitalbazaar/data-integrity');
  const Ed25519Multikey = await import('@digitalbazaar/ed25519-multikey');
  const EcdsaMultikey = await import('@digitalbazaar/ecdsa-multikey');
  const Bls12381Multikey = await import('@digitalbazaar/bls12-381-multikey');
  const eddsaRdfc = (await import('@digitalbazaar/eddsa-rdfc-2022-cryptosuite')).cryptosuite;
  const ecdsaRdfc = (await import('@digitalbazaar/ecdsa-rdfc-2019-cryptosuite')).cryptosuite;
  const eddsaJcs = await import('@digitalbazaar/eddsa-jcs-2022-cryptosuite');
  const ecdsaJcs = await import('@digitalbazaar/ecdsa-jcs-2019-cryptosuite');
  const ecdsaSd = await import('@digitalbazaar/ecdsa-sd-2023-cryptosuite');
  const bbs = await import('@digitalbazaar/bbs-2023-cryptosuite');
  const { localVerifier } = await import('@vp-authorizer/local');

  // Pre-built documents for the library's loader: contexts and each did:key's method and controller.
  const documents = new Map([[EXAMPLES_V2, { '@context': { '@vocab': 'https://www.w3.org/ns/credentials/examples#' } }]]);
  const libraryLoader = async (url) => (documents.has(url) ? { contextUrl: null, documentUrl: url, document: documents.get(url) } : vc.defaultDocumentLoader(url));
  async function didKey(keyPair) {
    const did = `did:key:${keyPair.publicKeyMultibase}`;
    keyPair.controller = did;
    keyPair.id = `${did}#${keyPair.publicKeyMultibase}`;
    documents.set(keyPair.id, { ...(await keyPair.export({ publicKey: true, includeContext: true })) });
    documents.set(did, { '@context': 'https://www.w3.org/ns/did/v1', id: did, assertionMethod: [keyPair.id], authentication: [keyPair.id] });
    return keyPair;
  }
  const keys = {
    Ed25519: await didKey(await Ed25519Multikey.generate()),
    'P-256': await didKey(await EcdsaMultikey.generate({ curve: 'P-256' })),
    BLS: await didKey(await Bls12381Multikey.generateBbsKeyPair({ algorithm: Bls12381Multikey.ALGORITHMS.BBS_BLS12381_SHA256 })),
  };
  const SUITES = [
    { name: 'eddsa-rdfc-2022', key: 'Ed25519', sign: () => eddsaRdfc, verify: () => eddsaRdfc },
    { name: 'ecdsa-rdfc-2019', key: 'P-256', sign: () => ecdsaRdfc, verify: () => ecdsaRdfc },
    { name: 'eddsa-jcs-2022', key: 'Ed25519', sign: () => eddsaJcs.createSignCryptosuite(), verify: () => eddsaJcs.createVerifyCryptosuite() },
    { name: 'ecdsa-jcs-2019', key: 'P-256', sign: () => ecdsaJcs.createSignCryptosuite(), verify: () => ecdsaJcs.createVerifyCryptosuite() },
    { name: 'ecdsa-sd-2023', key: 'P-256', sign: () => ecdsaSd.createSignCryptosuite({ mandatoryPointers: ['/issuer'] }), verify: () => ecdsaSd.createVerifyCryptosuite(), disclose: () => ecdsaSd.createDiscloseCryptosuite({ selectivePointers: ['/credentialSubject'] }) },
    { name: 'bbs-2023', key: 'BLS', sign: () => bbs.createSignCryptosuite({ mandatoryPointers: ['/issuer'] }), verify: () => bbs.createVerifyCryptosuite(), disclose: () => bbs.createDiscloseCryptosuite({ selectivePointers: ['/credentialSubject'] }), iterations: 10 },
  ];

  const verifier = localVerifier({ trustAnchors: [] });
  // did:key alone, as a DID-method configuration enabling it says.
  const didMethods = { methods: { key: { enabled: true } }, response: {} };
  // The caller's signal, made once like the library's arguments: creating an AbortController is not verification.
  const call = { signal: new AbortController().signal };
  const ours = async (credential) => {
    const results = await verifier.verify(
      { authorizationId: 'bench', query: { type: 'DCQL', dcql: { credentials: [] } }, presentations: [{ kind: 'ldp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'ldp_vc', raw: credential }], nonce: 'n', audience: 'a', sessionTranscript: { kind: 'redirect', clientId: 'a', nonce: 'n', responseUri: 'https://v.example', jwkThumbprint: null }, holderBindingRequired: { vc: false }, didMethods },
      call,
    );
    const failed = results.find((r) => r.error);
    if (failed) throw new Error(`local verifier: ${failed.error.code} ${failed.error.detail ?? ''}`);
  };

  const rows = [];
  // BENCH_DI_SUITES=eddsa-jcs-2022,… measures those suites alone.
  const only = process.env.BENCH_DI_SUITES?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !SUITES.some((s) => s.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`BENCH_DI_SUITES names unknown suites: ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  for (const suite of SUITES.filter((s) => !only || only.includes(s.name))) {
    const key = keys[suite.key];
    const signed = await vc.issue({
      credential: { '@context': ['https://www.w3.org/ns/credentials/v2', EXAMPLES_V2], type: ['VerifiableCredential', 'ExampleDegreeCredential'], issuer: key.controller, validFrom: '2024-01-01T00:00:00Z', credentialSubject: { id: 'did:example:holder', degree: { type: 'ExampleBachelorDegree', name: 'Bachelor of Science and Arts' } } },
      suite: new DataIntegrityProof({ signer: key.signer(), cryptosuite: suite.sign() }),
      documentLoader: libraryLoader,
    });
    const credential = suite.disclose ? await vc.derive({ verifiableCredential: signed, suite: new DataIntegrityProof({ cryptosuite: suite.disclose() }), documentLoader: libraryLoader }) : signed;
    const library = async () => {
      const result = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite: suite.verify() }), documentLoader: libraryLoader });
      if (!result.verified) throw new Error(`library: ${JSON.stringify(result.error ?? result.results?.[0]?.error)}`);
    };
    const n = suite.iterations ?? iterations;
    // CPU time of the process (user + system, every thread: WebCrypto runs on the thread pool),
    // which a busy machine disturbs far less than wall time; both sides pay the same crypto.
    const cpuOf = async (fn, count) => {
      const before = process.cpuUsage();
      for (let i = 0; i < count; i++) await fn(credential);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000 / count;
    };
    // Warm both paths well past the JIT's tiers: the first hundreds of calls are compile time.
    for (let w = 0; w < 3; w++) {
      await cpuOf(ours, n);
      await cpuOf(library, n);
    }
    const ratios = [];
    const oursMs = [];
    const libraryMs = [];
    const slice = Math.max(1, Math.floor(n / 10));
    for (let r = 0; r < rounds; r++) {
      // Ten short slices per side, alternating, so both sides see the same moments of load.
      let o = 0;
      let b = 0;
      for (let k = 0; k < 10; k++) {
        if ((r + k) % 2 === 0) {
          o += await cpuOf(ours, slice);
          b += await cpuOf(library, slice);
        } else {
          b += await cpuOf(library, slice);
          o += await cpuOf(ours, slice);
        }
      }
      oursMs.push(o / 10);
      libraryMs.push(b / 10);
      ratios.push(o / b);
    }
    // The goal's figure pools every round (a credential of a cheap suite costs a third of a
    // millisecond, so a single slice is at the mercy of the scheduler); the rounds' median beside it.
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    rows.push({ suite: suite.name, iterations: n, oursMs: +median(oursMs).toFixed(3), libraryMs: +median(libraryMs).toFixed(3), ratio: +(sum(oursMs) / sum(libraryMs)).toFixed(3), medianOfRounds: +median(ratios).toFixed(3), ratios: ratios.map((x) => +x.toFixed(3)) });
  }
  return { goal: '≤ 1.2×', measure: 'process CPU per credential', rounds, rows };
}

if (isMain(import.meta.url)) printJson(await run());
