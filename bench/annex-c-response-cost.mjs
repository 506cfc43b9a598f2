#!/usr/bin/env node
// CPU time of one ISO/IEC 18013-7 Annex C (org-iso-mdoc) response in process, against the same
// cryptographic operations done directly with node:crypto in the same process on the same bytes
// (the wallet's own cipherText, opened with the authorization's own recipient key), every check
// required to pass. Two rows, both against that one baseline:
//
// - goal, "decrypt + verify": exactly the steps the issue names, through the production functions
//   the pipeline calls, in its order: `decryptAnnexCResponse` (envelope CBOR, SessionTranscript,
//   HPKE open), `annexCVpToken`, `runFormatPolicy` (the DeviceResponse parse, the element check),
//   then the instance's @vp-authorizer/local `validate` ∥ `verify` (trust, DCQL, IssuerAuth,
//   digests, validity, DeviceAuth). Nothing is reimplemented; what it leaves out is what a
//   submission adds around them.
// - informative, "whole submit": the typed method `authorizer.submitDcApiResponse` (body schema,
//   record load and checks, claim, the steps above under client deadlines, decision, store commit,
//   events): what one response costs an application, store and lifecycle included.
//
// The direct baseline: HPKE open (RFC 9180 base mode): the recipient scalar set on an ECDH (P-256
// point multiplication), ECDH with `enc`, SHA-256 of the Annex C handover, the seven HMAC-SHA256
// of the key schedule, AES-128-GCM open of the whole cipherText; IssuerAuth: ECDSA P-256 over its
// Sig_structure with the document signer's key; one SHA-256 per disclosed IssuerSignedItemBytes,
// compared with the MSO's digest; DeviceAuth: the device key imported from its JWK, ECDSA P-256
// over the DeviceAuthentication Sig_structure. Decoding is not cryptography: it takes what it
// needs out of the DeviceResponse once, before timing.
// The issuer chain: the authorizer remembers a verified chain (local/x509/chain-verdict-cache.ts),
// so in steady state it verifies no certificate signature per response, only hashes the chain's
// DER to find its verdict. `direct` does the same (SHA-256 of the document signer's DER, a map
// lookup) and is the baseline of both rows; `directVerifyingChain` parses the document signer
// certificate and verifies its signature under the IACA on every response, as a verifier without
// a cache would (informative). Authorizations and wallet answers are prepared before timing, one
// per response on every side; rounds alternate which side goes first. Goal: ratio ≤ 1.3×.
// `BUILDS=before=<dir>,…` (builds saved with `node bench/lib/ab-builds.mjs save <dir>`) adds a
// whole-submit side and, when that build has the steps, a decrypt + verify side per saved build of
// core and local, in the same rounds (A/B in one process).
import { createDecipheriv, createECDH, createHash, createHmac, createPublicKey, timingSafeEqual, verify, X509Certificate } from 'node:crypto';
import { array, bytes, tag, text } from './lib/cbor-writer.mjs';
import { loadBuild } from './lib/ab-builds.mjs';
import { annexCCreateBody, annexCIssuerAndWallet, MDL, ORIGIN } from './lib/annex-c-fixture.mjs';
import { inProcessAuthorizer } from './lib/in-process-authorizer.mjs';
import { isMain, printJson } from './lib/main.mjs';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const BASE = 'https://verifier.example';

export async function run({ iterations = Number(process.env.BENCH_ANNEXC_ITERATIONS ?? 40), rounds = Number(process.env.BENCH_ANNEXC_ROUNDS ?? 9) } = {}) {
  const { issuer, wallet } = await annexCIssuerAndWallet();
  const builds = [['ours', undefined], ...(process.env.BUILDS ?? '').split(',').filter(Boolean).map((entry) => entry.split('='))];
  const setups = {};
  for (const [label, dir] of builds) {
    const build = await loadBuild(dir);
    setups[label] = { build, ...(await inProcessAuthorizer({ base: BASE, apiKey: 'bench-key-0123456789', instanceId: 'bench', issuer, build })) };
  }
  const body = annexCCreateBody;

  /** n fresh authorizations, each answered by the wallet (not submitted), with their stored records. */
  async function prepare({ authorizer, store }, n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const created = await authorizer.createAuthorization('bench', body);
      const { digitalCredentialGetResponse, deviceResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
      out.push({ id: created.authorizationId, body: { origin: ORIGIN, digitalCredentialGetResponse }, record: await store.get('bench', created.authorizationId), deviceResponse });
    }
    return out;
  }
  const perSide = iterations * (rounds + 2);
  const sides = {};
  const first = await prepare(setups.ours, 1);
  const direct = await directVerifier(first[0], issuer.rootCertificatePem);
  sides.direct = () => direct.all(false);
  sides.directVerifyingChain = () => direct.all(true);
  for (const [label, setup] of Object.entries(setups)) {
    const suffix = label === 'ours' ? '' : `:${label}`;
    const steps = decryptAndVerify(setup);
    if (steps) sides[`decryptVerify${suffix}`] = inTurn(await prepare(setup, perSide), steps);
    const submits = await prepare(setup, perSide);
    sides[`submit${suffix}`] = inTurn(submits, async (a) => {
      const answer = await setup.authorizer.submitDcApiResponse('bench', a.id, 'dc_api', a.body);
      if (answer.status !== 'authorized') throw new Error(`bench: expected authorized, got ${JSON.stringify(answer)}`);
    });
  }

  const time = async (fn) => {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / iterations;
  };
  const times = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let r = 0; r < rounds + 2; r++) {
    const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
    const round = {};
    for (const side of order) round[side] = await time(sides[side]);
    if (r < 2) continue; // warm-up
    for (const side of order) times[side].push(round[side]);
  }
  for (const { authorizer } of Object.values(setups)) await authorizer.close();

  /** One side against the direct baseline: pooled ratio, median and range of the rounds' ratios. */
  const against = (side, baseline = 'direct') => {
    const ratios = times[side].map((t, i) => t / times[baseline][i]);
    return {
      msCpu: Number(mean(times[side]).toFixed(3)),
      ratio: Number((mean(times[side]) / mean(times[baseline])).toFixed(2)),
      medianOfRounds: Number(median(ratios).toFixed(2)),
      roundsRange: [Number(Math.min(...ratios).toFixed(2)), Number(Math.max(...ratios).toFixed(2))],
    };
  };
  const goal = against('decryptVerify');
  const whole = against('submit');
  const otherBuilds = builds.slice(1).map(([label]) => label);
  return {
    name: 'Annex C response (decrypt + verify) vs node:crypto directly',
    // The goal: decrypt + verify through the production functions.
    oursMsCpu: goal.msCpu,
    directMsCpu: Number(mean(times.direct).toFixed(3)),
    ratio: goal.ratio,
    medianOfRounds: goal.medianOfRounds,
    roundsRange: goal.roundsRange,
    goal: 1.3,
    meetsGoal: goal.ratio <= 1.3,
    // Informative: the whole typed method, store and lifecycle included.
    wholeSubmit: whole,
    directVerifyingChainMsCpu: Number(mean(times.directVerifyingChain).toFixed(3)),
    ratioVsDirectVerifyingChain: Number((mean(times.decryptVerify) / mean(times.directVerifyingChain)).toFixed(2)),
    ...(otherBuilds.length > 0
      ? { builds: Object.fromEntries(otherBuilds.map((label) => [label, { ...(times[`decryptVerify:${label}`] ? { decryptVerify: against(`decryptVerify:${label}`) } : {}), wholeSubmit: against(`submit:${label}`) }])) }
      : {}),
    deviceResponseBytes: first[0].deviceResponse.length,
    iterations,
    rounds,
  };
}

/** A side that takes the next prepared answer on every call. */
function inTurn(answers, fn) {
  let next = 0;
  return () => fn(answers[next++]);
}

/**
 * Decrypt + verify as the pipeline runs them (wallet-response-pipeline.ts acceptAnnexCResponse,
 * evaluate-response.ts), through the same functions and the instance's own validator and
 * verifier, every result required to pass. Undefined for a saved build without these entries.
 */
function decryptAndVerify({ build, validator, verifier }) {
  const { decryptAnnexCResponse, annexCVpToken, annexCTranscriptInput } = build.internal ?? {};
  if (!decryptAnnexCResponse || !build.formats) return undefined;
  const { runFormatPolicy, CborBudget } = build.formats;
  const options = { signal: new AbortController().signal };
  const passed = (results, what) => {
    const failure = results.find((r) => r.error);
    if (failure) throw new Error(`bench: ${what} failed: ${JSON.stringify(failure)}`);
  };
  return async ({ record, body }) => {
    const { request, annexC } = record;
    const budget = new CborBudget();
    const transcript = annexCTranscriptInput(annexC.encryptionInfo, ORIGIN);
    const deviceResponse = await decryptAnnexCResponse(body.digitalCredentialGetResponse.data.response, annexC.privateJwk, transcript, budget);
    const format = runFormatPolicy({ query: request.query, responseType: request.responseType, vpToken: annexCVpToken(deviceResponse, request.query.dcql, budget) });
    if (!format.ok) throw new Error(`bench: format failed: ${JSON.stringify(format.results)}`);
    const common = { authorizationId: record.id, query: request.query, presentations: format.presentations };
    const [validated, verified] = await Promise.all([
      validator.validate(common, options),
      verifier.verify({ ...common, nonce: request.nonce, audience: `origin:${ORIGIN}`, sessionTranscript: transcript, holderBindingRequired: { mdl: true }, didMethods: {} }, options),
    ]);
    passed(validated, 'validate');
    passed(verified, 'verify');
  };
}

/**
 * The direct side: every value it needs from the envelope and the DeviceResponse is taken out
 * once (decoding is not cryptography), then each call does the cryptographic operations and
 * checks they pass.
 */
export async function directVerifier(answer, rootPem) {
  const { decodeWalletCbor, sessionTranscriptBytes } = await import('@vp-authorizer/core/formats');
  const untag = (value) => (value && typeof value === 'object' && 'tag' in value && 'value' in value ? value.value : value);
  const response = decodeWalletCbor(answer.deviceResponse);
  const document = response.get('documents')[0];
  const issuerSigned = document.get('issuerSigned');
  const [protectedBytes, unprotectedHeader, payload, signature] = untag(issuerSigned.get('issuerAuth'));
  const x5chain = unprotectedHeader.get(33) ?? decodeWalletCbor(protectedBytes).get(33);
  const signerDer = Buffer.from(Array.isArray(x5chain) ? x5chain[0] : x5chain);
  const issuerToBeSigned = array([text('Signature1'), bytes(protectedBytes), bytes(Buffer.alloc(0)), bytes(payload)]);
  const mso = decodeWalletCbor(untag(decodeWalletCbor(payload)));
  const items = [];
  for (const [namespace, list] of issuerSigned.get('nameSpaces')) {
    for (const item of list) {
      const content = untag(item);
      const digestID = decodeWalletCbor(content).get('digestID');
      items.push({ itemBytes: tag(24, bytes(content)), expected: Buffer.from(mso.get('valueDigests').get(namespace).get(digestID)) });
    }
  }
  const coseKey = mso.get('deviceKeyInfo').get('deviceKey');
  const deviceJwk = { kty: 'EC', crv: 'P-256', x: Buffer.from(coseKey.get(-2)).toString('base64url'), y: Buffer.from(coseKey.get(-3)).toString('base64url') };
  const deviceSigned = document.get('deviceSigned');
  const [deviceProtected, , , deviceSignature] = untag(deviceSigned.get('deviceAuth').get('deviceSignature'));
  const encryptionInfo = answer.record.annexC.encryptionInfo;
  const transcript = sessionTranscriptBytes({ kind: 'annex_c', encryptionInfo, origin: ORIGIN });
  const handoverInput = array([text(encryptionInfo), text(ORIGIN)]);
  const deviceAuthentication = tag(24, bytes(array([text('DeviceAuthentication'), Buffer.from(transcript), text(MDL), tag(24, bytes(untag(deviceSigned.get('nameSpaces'))))])));
  const deviceToBeSigned = array([text('Signature1'), bytes(deviceProtected), bytes(Buffer.alloc(0)), bytes(deviceAuthentication)]);
  const rootKey = new X509Certificate(rootPem).publicKey;

  // The wallet's own envelope, opened with the authorization's recipient key: the same bytes the other sides open.
  const envelope = decodeWalletCbor(Buffer.from(answer.body.digitalCredentialGetResponse.data.response, 'base64url'))[1];
  const enc = Buffer.from(envelope.get('enc'));
  const cipherText = Buffer.from(envelope.get('cipherText'));
  const d = Buffer.from(answer.record.annexC.privateJwk.d, 'base64url');

  const hmac = (key, ...parts) => {
    const mac = createHmac('sha256', key.length === 0 ? Buffer.alloc(32) : key);
    for (const part of parts) mac.update(part);
    return mac.digest();
  };
  const VERSION = Buffer.from('HPKE-v1');
  const KEM = Buffer.from([0x4b, 0x45, 0x4d, 0x00, 0x10]);
  const SUITE = Buffer.from([0x48, 0x50, 0x4b, 0x45, 0x00, 0x10, 0x00, 0x01, 0x00, 0x01]);
  const EMPTY = Buffer.alloc(0);
  const extract = (suiteId, salt, label, ikm) => hmac(salt, VERSION, suiteId, Buffer.from(label), ikm);
  const expand = (suiteId, prk, label, info, length) => hmac(prk, Buffer.from([0, length]), VERSION, suiteId, Buffer.from(label), info, Buffer.from([1])).subarray(0, length);
  const verifiedSigners = new Map();
  const sha256 = (data) => createHash('sha256').update(data).digest();

  /** HPKE open. */
  const open = () => {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(d);
    const dh = ecdh.computeSecret(enc);
    const shared = expand(KEM, extract(KEM, EMPTY, 'eae_prk', dh), 'shared_secret', Buffer.concat([enc, ecdh.getPublicKey()]), 32);
    sha256(handoverInput); // the handover hash inside the SessionTranscript (info)
    const context = Buffer.concat([Buffer.from([0]), extract(SUITE, EMPTY, 'psk_id_hash', EMPTY), extract(SUITE, EMPTY, 'info_hash', transcript)]);
    const secret = extract(SUITE, shared, 'secret', EMPTY);
    const decipher = createDecipheriv('aes-128-gcm', expand(SUITE, secret, 'key', context, 16), expand(SUITE, secret, 'base_nonce', context, 12));
    decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
    const plain = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
    if (plain.length !== answer.deviceResponse.length) throw new Error('direct: decryption');
  };
  /** IssuerAuth, digests, DeviceAuth; the document signer's key from its verified chain, found by the DER's digest or verified again. */
  const verifyDocument = (verifyingChain) => {
    let signerKey;
    if (verifyingChain) {
      const certificate = new X509Certificate(signerDer);
      if (!certificate.verify(rootKey)) throw new Error('direct: chain');
      signerKey = certificate.publicKey;
    } else {
      const digest = sha256(signerDer).toString('base64url');
      signerKey = verifiedSigners.get(digest);
      if (!signerKey) {
        const certificate = new X509Certificate(signerDer);
        if (!certificate.verify(rootKey)) throw new Error('direct: chain');
        verifiedSigners.set(digest, (signerKey = certificate.publicKey));
      }
    }
    if (!verify('sha256', issuerToBeSigned, { key: signerKey, dsaEncoding: 'ieee-p1363' }, signature)) throw new Error('direct: issuerAuth');
    for (const { itemBytes, expected } of items) if (!timingSafeEqual(sha256(itemBytes), expected)) throw new Error('direct: digest');
    const deviceKey = createPublicKey({ key: deviceJwk, format: 'jwk' });
    if (!verify('sha256', deviceToBeSigned, { key: deviceKey, dsaEncoding: 'ieee-p1363' }, deviceSignature)) throw new Error('direct: deviceAuth');
  };
  return { open, verifyDocument, all: (verifyingChain) => (open(), verifyDocument(verifyingChain)) };
}

if (isMain(import.meta.url)) printJson(await run());
