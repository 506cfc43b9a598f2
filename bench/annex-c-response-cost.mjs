#!/usr/bin/env node
// CPU time to accept one ISO/IEC 18013-7 Annex C (org-iso-mdoc) response in process
// (POST …/dc_api through authorizer.fetch: HPKE open, CBOR, format, validate ∥ verify with
// @vp-authorizer/local, store writes) against the same cryptographic operations done directly with
// node:crypto in the same process: one P-256 ECDH, the HKDF-SHA256 steps of RFC 9180 (two
// extracts, three expands), one AES-128-GCM open of the same length, three ECDSA P-256 verifies
// (IssuerAuth, the issuer certificate under its root, DeviceAuth) and one SHA-256 per disclosed
// element. Goal: ratio ≤ 1.3×. Authorizations and wallet answers are prepared before timing;
// rounds alternate which side goes first.
import { createCipheriv, createDecipheriv, createECDH, createHash, createHmac, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { isMain, printJson } from './lib/main.mjs';
import { inProcessAuthorizer } from './lib/in-process-authorizer.mjs';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ORIGIN = 'https://rp.example';
const BASE = 'https://verifier.example';
const MDL = 'org.iso.18013.5.1.mDL';
const NS = 'org.iso.18013.5.1';

export async function run({ iterations = Number(process.env.BENCH_ANNEXC_ITERATIONS ?? 40), rounds = Number(process.env.BENCH_ANNEXC_ROUNDS ?? 7) } = {}) {
  const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const issuer = await createTestIssuer();
  const wallet = await createTestWallet();
  await wallet.addMdoc(issuer, { docType: MDL, namespaces: { [NS]: { family_name: 'Mustermann', given_name: 'Erika', age_over_18: true } } });
  const { authorizer } = await inProcessAuthorizer({ base: BASE, apiKey: 'bench-key-0123456789', instanceId: 'bench', issuer });
  const claims = ['family_name', 'given_name', 'age_over_18'];
  const body = { responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: claims.map((c) => ({ path: [NS, c] })) }] } } };
  const call = (path, json) => authorizer.fetch(new Request(`${BASE}${path}`, { method: 'POST', headers: { authorization: 'Bearer bench-key-0123456789', 'content-type': 'application/json' }, body: JSON.stringify(json) }));

  async function prepare(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const created = await (await call('/openid4/vp/v1_0/authorizations', body)).json();
      const { digitalCredentialGetResponse, deviceResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
      out.push({ path: `/openid4/vp/v1_0/${created.authorizationId}/dc_api`, json: { origin: ORIGIN, digitalCredentialGetResponse }, length: deviceResponse.length });
    }
    return out;
  }

  // The direct side: the same operations on keys and bytes of the same shape.
  const recipient = createECDH('prime256v1');
  recipient.generateKeys();
  const sender = createECDH('prime256v1');
  const issuerKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = randomBytes(700); // an MSO's size
  const signature = sign('sha256', signed, { key: issuerKeys.privateKey, dsaEncoding: 'ieee-p1363' });
  const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
  function direct(length, aesKey, iv, ct, tag) {
    sender.generateKeys();
    const dh = sender.computeSecret(recipient.getPublicKey());
    const prk = hmac(Buffer.alloc(32), dh);
    const ss = hmac(prk, Buffer.from('eae_prk'));
    const secret = hmac(Buffer.alloc(32), ss);
    hmac(secret, Buffer.from('key'));
    hmac(secret, Buffer.from('base_nonce'));
    const decipher = createDecipheriv('aes-128-gcm', aesKey, iv);
    decipher.setAuthTag(tag);
    Buffer.concat([decipher.update(ct), decipher.final()]);
    for (let v = 0; v < 3; v++) if (!verify('sha256', signed, { key: issuerKeys.publicKey, dsaEncoding: 'ieee-p1363' }, signature)) throw new Error('verify');
    for (const c of claims) createHash('sha256').update(c).update(randomBytes(64)).digest();
    return length;
  }

  const answers = await prepare(iterations * (rounds + 2));
  const aesKey = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-128-gcm', aesKey, iv);
  const ct = Buffer.concat([cipher.update(randomBytes(answers[0].length)), cipher.final()]);
  const tag = cipher.getAuthTag();

  const oursTimes = [];
  const directTimes = [];
  let next = 0;
  const timeOurs = async () => {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) {
      const a = answers[next++];
      const res = await call(a.path, a.json);
      const answer = await res.json();
      if (answer.status !== 'authorized') throw new Error(`bench: expected authorized, got ${JSON.stringify(answer)}`);
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / iterations;
  };
  const timeDirect = () => {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) direct(answers[0].length, aesKey, iv, ct, tag);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / iterations;
  };
  for (let r = 0; r < rounds + 2; r++) {
    const pair = r % 2 === 0 ? [await timeOurs(), timeDirect()] : [timeDirect(), await timeOurs()].reverse();
    if (r < 2) continue; // warm-up
    oursTimes.push(pair[0]);
    directTimes.push(pair[1]);
  }
  await authorizer.close();
  const ours = oursTimes.reduce((a, b) => a + b, 0) / oursTimes.length;
  const baseline = directTimes.reduce((a, b) => a + b, 0) / directTimes.length;
  return {
    name: 'Annex C response (decrypt + verify) vs node:crypto directly',
    oursMsCpu: Number(ours.toFixed(3)),
    directMsCpu: Number(baseline.toFixed(3)),
    ratio: Number((ours / baseline).toFixed(2)),
    medianRatio: Number((median(oursTimes) / median(directTimes)).toFixed(2)),
    goal: 1.3,
    meetsGoal: ours / baseline <= 1.3,
    iterations,
    rounds,
  };
}

if (isMain(import.meta.url)) printJson(await run());
