#!/usr/bin/env node
// CPU time to accept one ISO/IEC 18013-7 Annex C (org-iso-mdoc) response in process, through the
// typed method `authorizer.submitDcApiResponse` (no HTTP: body schema, record load and checks,
// HPKE open, CBOR, format, validate ∥ verify with @vp-authorizer/local, store writes), against the
// same cryptographic operations done directly with node:crypto in the same process, on the same
// bytes (a DeviceResponse of the same wallet, sealed to a key of the bench's own), every check
// required to pass:
//   HPKE open (RFC 9180 base mode): the recipient scalar set on an ECDH (P-256 point
//   multiplication), ECDH with `enc`, SHA-256 of the Annex C handover, the seven HMAC-SHA256 of
//   the key schedule, AES-128-GCM open of the whole cipherText;
//   IssuerAuth: ECDSA P-256 over its Sig_structure with the document signer's key;
//   one SHA-256 per disclosed IssuerSignedItemBytes, compared with the MSO's digest;
//   DeviceAuth: the device key imported from its JWK, ECDSA P-256 over the DeviceAuthentication
//   Sig_structure.
// The issuer chain: the authorizer remembers a verified chain (local/x509/chain-verdict-cache.ts),
// so in steady state it verifies no certificate signature per response, only hashes the chain's
// DER to find its verdict. `direct` does the same (SHA-256 of the document signer's DER, a map
// lookup) and is the goal's baseline; `directVerifyingChain` parses the document signer
// certificate and verifies its signature under the IACA on every response, as a verifier without
// a cache would (informative). Authorizations and wallet answers are prepared before timing;
// rounds alternate which side goes first. Goal: ratio ≤ 1.3×.
// `BUILDS=before=<dir>,…` (builds saved with `node bench/lib/ab-builds.mjs save <dir>`) adds one
// more authorizer side per saved build of core and local, in the same rounds (A/B in one process).
import { createDecipheriv, createECDH, createHash, createHmac, createPublicKey, timingSafeEqual, verify, X509Certificate } from 'node:crypto';
import { array, bytes, tag, text } from './lib/cbor-writer.mjs';
import { loadBuild } from './lib/ab-builds.mjs';
import { inProcessAuthorizer } from './lib/in-process-authorizer.mjs';
import { isMain, printJson } from './lib/main.mjs';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const ORIGIN = 'https://rp.example';
const BASE = 'https://verifier.example';
const MDL = 'org.iso.18013.5.1.mDL';
const NS = 'org.iso.18013.5.1';

export async function run({ iterations = Number(process.env.BENCH_ANNEXC_ITERATIONS ?? 40), rounds = Number(process.env.BENCH_ANNEXC_ROUNDS ?? 9) } = {}) {
  const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const issuer = await createTestIssuer();
  const wallet = await createTestWallet();
  await wallet.addMdoc(issuer, { docType: MDL, namespaces: { [NS]: { family_name: 'Mustermann', given_name: 'Erika', age_over_18: true } } });
  const builds = (process.env.BUILDS ?? '').split(',').filter(Boolean).map((entry) => entry.split('='));
  const authorizers = { ours: (await inProcessAuthorizer({ base: BASE, apiKey: 'bench-key-0123456789', instanceId: 'bench', issuer })).authorizer };
  for (const [label, dir] of builds) authorizers[label] = (await inProcessAuthorizer({ base: BASE, apiKey: 'bench-key-0123456789', instanceId: 'bench', issuer, build: await loadBuild(dir) })).authorizer;
  const claims = ['family_name', 'given_name', 'age_over_18'];
  const body = { responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: claims.map((c) => ({ path: [NS, c] })) }] } } };

  async function prepare(authorizer, n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const created = await authorizer.createAuthorization('bench', body);
      const { digitalCredentialGetResponse, deviceResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
      out.push({ id: created.authorizationId, body: { origin: ORIGIN, digitalCredentialGetResponse }, encryptionInfo: created.digitalCredentialGetRequest.data.encryptionInfo, deviceResponse });
    }
    return out;
  }
  const answersOf = {};
  for (const [label, authorizer] of Object.entries(authorizers)) answersOf[label] = await prepare(authorizer, iterations * (rounds + 2));
  const answers = answersOf.ours;
  const direct = await directVerifier(answers[0], issuer.rootCertificatePem);

  const time = async (fn) => {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / iterations;
  };
  const submitter = (label) => {
    let next = 0;
    return async () => {
      const a = answersOf[label][next++];
      const answer = await authorizers[label].submitDcApiResponse('bench', a.id, 'dc_api', a.body);
      if (answer.status !== 'authorized') throw new Error(`bench: expected authorized, got ${JSON.stringify(answer)}`);
    };
  };
  const sides = { direct: () => direct(false), directVerifyingChain: () => direct(true) };
  for (const label of Object.keys(authorizers)) sides[label] = submitter(label);
  const times = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let r = 0; r < rounds + 2; r++) {
    const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
    const round = {};
    for (const side of order) round[side] = await time(sides[side]);
    if (r < 2) continue; // warm-up
    for (const side of order) times[side].push(round[side]);
  }
  for (const authorizer of Object.values(authorizers)) await authorizer.close();
  const ratio = mean(times.ours) / mean(times.direct);
  const roundRatios = times.ours.map((t, i) => t / times.direct[i]);
  return {
    name: 'Annex C response (decrypt + verify) vs node:crypto directly',
    oursMsCpu: Number(mean(times.ours).toFixed(3)),
    directMsCpu: Number(mean(times.direct).toFixed(3)),
    directVerifyingChainMsCpu: Number(mean(times.directVerifyingChain).toFixed(3)),
    ratio: Number(ratio.toFixed(2)),
    medianOfRounds: Number(median(roundRatios).toFixed(2)),
    ratioVsDirectVerifyingChain: Number((mean(times.ours) / mean(times.directVerifyingChain)).toFixed(2)),
    goal: 1.3,
    meetsGoal: ratio <= 1.3,
    ...(builds.length > 0
      ? { builds: Object.fromEntries(builds.map(([label]) => [label, { msCpu: Number(mean(times[label]).toFixed(3)), ratio: Number((mean(times[label]) / mean(times.direct)).toFixed(2)), medianOfRounds: Number(median(times[label].map((t, i) => t / times.direct[i])).toFixed(2)) }])) }
      : {}),
    deviceResponseBytes: answers[0].deviceResponse.length,
    iterations,
    rounds,
  };
}

/**
 * The direct side: every value it needs from the DeviceResponse is taken out once (decoding is
 * not cryptography), then each call does the cryptographic operations and checks they pass.
 */
async function directVerifier(answer, rootPem) {
  const { decodeWalletCbor, sessionTranscriptBytes } = await import('@vp-authorizer/core/formats');
  const { CipherSuite, DhkemP256HkdfSha256, HkdfSha256, Aes128Gcm } = await import('@hpke/core');
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
  const transcript = sessionTranscriptBytes({ kind: 'annex_c', encryptionInfo: answer.encryptionInfo, origin: ORIGIN });
  const handoverInput = array([text(answer.encryptionInfo), text(ORIGIN)]);
  const deviceAuthentication = tag(24, bytes(array([text('DeviceAuthentication'), Buffer.from(transcript), text(MDL), tag(24, bytes(untag(deviceSigned.get('nameSpaces'))))])));
  const deviceToBeSigned = array([text('Signature1'), bytes(deviceProtected), bytes(Buffer.alloc(0)), bytes(deviceAuthentication)]);
  const rootKey = new X509Certificate(rootPem).publicKey;

  // The same DeviceResponse sealed to a recipient key of the bench's own (the authorizer's stays in its store).
  const recipient = createECDH('prime256v1');
  recipient.generateKeys();
  const d = recipient.getPrivateKey();
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const publicJwk = { kty: 'EC', crv: 'P-256', x: recipient.getPublicKey().subarray(1, 33).toString('base64url'), y: recipient.getPublicKey().subarray(33).toString('base64url') };
  const sealed = await suite.seal({ recipientPublicKey: await suite.kem.importKey('jwk', publicJwk, true), info: transcript.slice().buffer }, answer.deviceResponse.slice().buffer, new ArrayBuffer(0));
  const enc = Buffer.from(sealed.enc);
  const cipherText = Buffer.from(sealed.ct);

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

  return (verifyingChain) => {
    // HPKE open.
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
    // The document signer's key: its verified chain found by the DER's digest, or verified again.
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
}

if (isMain(import.meta.url)) printJson(await run());
