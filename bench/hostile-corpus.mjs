// Hostile wallet and RP requests for the load benchmark. Each entry builds one request against a
// fresh authorization (created by the caller in the mode the attack needs) and names the status
// classes an honest server may answer with. Bodies stay within the default 1 MiB body limit
// except the one that tests the limit itself. `request(ctx)` (which may return a promise) gets
// the authorization's `id` and `state` (`encryptionInfo` for an org-iso-mdoc one), and
// `issuerX5c`: the x5c chain of the issuer the authorizer trusts.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { array, bytes, head, map, tag, text } from './lib/cbor-writer.mjs';

/** One DeviceResponse whose namespace lists the same large IssuerSignedItem `refs` times via tags 28/29. */
function sharedReferenceBomb(refs = 40_000, itemBytes = 20_000) {
  const item = map([
    [text('digestID'), Buffer.from([0x00])],
    [text('random'), bytes(Buffer.alloc(16))],
    [text('elementIdentifier'), text('given_name')],
    [text('elementValue'), text('x'.repeat(itemBytes))],
  ]);
  const shared = tag(28, tag(24, bytes(item)));
  const items = Buffer.concat([head(4, refs), shared, ...Array.from({ length: refs - 1 }, () => tag(29, Buffer.from([0x00])))]);
  const issuerAuth = array([bytes(Buffer.alloc(0)), map([]), Buffer.from([0xf6]), bytes(Buffer.alloc(64))]);
  const doc = map([
    [text('docType'), text('org.iso.18013.5.1.mDL')],
    [text('issuerSigned'), map([[text('nameSpaces'), map([[text('org.iso.18013.5.1'), items]])], [text('issuerAuth'), issuerAuth]])],
  ]);
  return map([[text('version'), text('1.0')], [text('documents'), array([doc])], [text('status'), Buffer.from([0x00])]]).toString('base64url');
}

/** Tag-24 inside tag-24, thousands deep. */
function nestedEmbeddedCbor(depth = 2_000) {
  let inner = Buffer.from([0xf6]);
  for (let i = 0; i < depth; i++) inner = tag(24, bytes(inner));
  return inner.toString('base64url');
}

/** Declares a 4 GiB byte string and sends eleven bytes. */
const hugeDeclaredLength = () => Buffer.from([0xa1, 0x67, ...Buffer.from('version'), 0x5b, 0, 0, 0, 1, 0, 0, 0, 0]).toString('base64url');

const form = (fields) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() });
const deepJson = (depth) => '['.repeat(depth) + ']'.repeat(depth);
const fakeSdJwt = (size) => `${Buffer.from('{"alg":"ES256","typ":"dc+sd-jwt"}').toString('base64url')}.${'A'.repeat(size)}.${'B'.repeat(86)}~`;

// The element the bombs disclose is the one asked for, as in the org-iso-mdoc requests below.
const MDOC_DCQL = { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'given_name'] }] }] } };

/** 690 K zero integers in one definite array as an element value: ~690 KB that scans item by item until the CBOR budget runs out. */
const wideArray = () => {
  const value = Buffer.concat([head(4, 690_000), Buffer.alloc(690_000, 0x00)]);
  const item = map([[text('digestID'), Buffer.from([0x00])], [text('elementIdentifier'), text('given_name')], [text('elementValue'), value]]);
  const doc = map([[text('docType'), text('org.iso.18013.5.1.mDL')], [text('issuerSigned'), map([[text('nameSpaces'), map([[text('org.iso.18013.5.1'), array([tag(24, bytes(item))])]])]])]]);
  return map([[text('version'), text('1.0')], [text('documents'), array([doc])], [text('status'), Buffer.from([0x00])]]).toString('base64url');
};

/** 8,000 small IssuerSignedItems under a fake issuerAuth: within every decoding bound, so the validator and verifier see them all. */
const manyItems = () => {
  const items = Array.from({ length: 8_000 }, (_, i) => tag(24, bytes(map([[text('digestID'), head(0, i)], [text('random'), bytes(Buffer.alloc(16))], [text('elementIdentifier'), text('given_name')], [text('elementValue'), text('x')]]))));
  const issuerAuth = array([bytes(Buffer.alloc(3)), map([]), bytes(Buffer.alloc(8)), bytes(Buffer.alloc(64))]);
  const doc = map([[text('docType'), text('org.iso.18013.5.1.mDL')], [text('issuerSigned'), map([[text('nameSpaces'), map([[text('org.iso.18013.5.1'), array(items)]])], [text('issuerAuth'), issuerAuth]])]]);
  return map([[text('version'), text('1.0')], [text('documents'), array([doc])], [text('status'), Buffer.from([0x00])]]).toString('base64url');
};

// ISO/IEC 18013-7 Annex C: the same DeviceResponses HPKE-sealed to the authorization's recipient
// key with the right SessionTranscript, as a wallet (or whoever read the request) can send them.
const ANNEX_C_ORIGIN = 'https://rp.example';
const ANNEX_C_CREATE = { responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ANNEX_C_ORIGIN], query: MDOC_DCQL };
async function sealAnnexC(encryptionInfo, plaintext) {
  const { receiveAnnexCRequest } = await import('@vp-authorizer/testing');
  const { sessionTranscriptBytes } = await import('@vp-authorizer/core/formats');
  const { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } = await import('@hpke/core');
  const deviceRequest = map([[text('version'), text('1.0')], [text('docRequests'), array([])]]).toString('base64url');
  const { recipientPublicJwk } = receiveAnnexCRequest({ protocol: 'org-iso-mdoc', data: { deviceRequest, encryptionInfo } });
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const info = sessionTranscriptBytes({ kind: 'annex_c', encryptionInfo, origin: ANNEX_C_ORIGIN });
  const sealed = await suite.seal({ recipientPublicKey: await suite.kem.importKey('jwk', recipientPublicJwk, true), info: info.slice().buffer }, new Uint8Array(plaintext).buffer, new ArrayBuffer(0));
  return array([text('dcapi'), map([[text('enc'), bytes(Buffer.from(sealed.enc))], [text('cipherText'), bytes(Buffer.from(sealed.ct))]])]).toString('base64url');
}
const annexCAttack = (name, build) => ({
  name: `${name}, HPKE-sealed (org-iso-mdoc)`,
  create: ANNEX_C_CREATE,
  request: async ({ id, encryptionInfo }) => ({
    method: 'POST',
    path: `/openid4/vp/v1_0/${id}/dc_api`,
    type: 'application/json',
    rp: true,
    body: JSON.stringify({ origin: ANNEX_C_ORIGIN, digitalCredentialGetResponse: { protocol: 'org-iso-mdoc', data: { response: await sealAnnexC(encryptionInfo, Buffer.from(build(), 'base64url')) } } }),
  }),
});
const SD_JWT_DCQL = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } };
const PE_DEFINITION = { id: 'pd', input_descriptors: [{ id: 'pid', format: { 'vc+sd-jwt': {} }, constraints: { fields: [{ path: ['$.vct'] }] } }] };

// Data Integrity credentials (ldp_vc) whose JSON-LD expansion or RDF canonicalization is costly,
// at the local verifier's default document limits, each with a well-formed proof (a real did:key,
// a signature that cannot match) so that all the work happens before the signature check.
const DI_ISSUER = 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';
const DI_CONTEXT = ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'];
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const diCredential = (subject, context = DI_CONTEXT) => ({
  '@context': context,
  type: ['VerifiableCredential'],
  issuer: DI_ISSUER,
  validFrom: '2024-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:holder', ...subject },
  proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', verificationMethod: `${DI_ISSUER}#${DI_ISSUER.slice(8)}`, created: '2024-01-01T00:00:00Z', proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKiPaeCuyFF5y6gbjGT' },
});
const scopedTerms = (n, inner = 1) => Object.fromEntries(range(n, (i) => [`t${i}`, { '@id': `https://e.example/t${i}`, '@context': Object.fromEntries(range(inner, (j) => [`u${i}_${j}`, `https://e.example/u${i}_${j}`])) }]));
const plainTerms = (n) => Object.fromEntries(range(n, (i) => [`p${i}`, `https://e.example/p${i}`]));
const LDP_DCQL = { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format: 'ldp_vc', require_cryptographic_holder_binding: false }] } };
const ldpAttack = (name, build) => ({
  name,
  create: { responseMode: 'direct_post', query: LDP_DCQL },
  request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ vc: [build()] }) }) }),
});
/** The Data Integrity attacks, also measured alone by `worstCanonicalizationMs` in hostile-stalls.mjs. */
export const HOSTILE_LDP = [
  ldpAttack('ldp_vc poison graph: 11 blank nodes all linked (110 references)', () => diCredential({ graph: range(11, (i) => ({ id: `_:b${i}`, knows: range(11, (j) => `_:b${j}`).filter((_, j) => j !== i) })) }, [...DI_CONTEXT, { knows: { '@id': 'https://example.org/knows', '@type': '@id' } }])),
  ldpAttack('ldp_vc blank-node chain 20 deep', () => diCredential({ n: range(20, () => 0).reduce((inner) => ({ n: inner }), { v: 'x' }) })),
  ldpAttack('ldp_vc 15 arrays of 128 strings', () => diCredential(Object.fromEntries(range(15, (i) => [`p${i}`, range(128, (j) => `x${j}`)])))),
  ldpAttack('ldp_vc 124 distinct blank nodes', () => diCredential({ items: range(124, (j) => ({ a: `x${j}`, b: `y${j}`, c: j })) })),
  ldpAttack('ldp_vc 40 identical blank-node trees', () => diCredential({ items: range(40, () => ({ a: { b: { c: 'same' } } })) })),
  ldpAttack('ldp_vc 31 scoped term definitions of 7 terms, all used', () => diCredential(Object.fromEntries(range(31, (i) => [`t${i}`, Object.fromEntries(range(7, (j) => [`u${i}_${j}`, 'x']))])), [...DI_CONTEXT, scopedTerms(31, 7)])),
  ldpAttack('ldp_vc 255 embedded terms, 120 nodes using them', () => diCredential({ items: range(120, (j) => ({ p0: `x${j}` })) }, [...DI_CONTEXT, plainTerms(255)])),
  ldpAttack('ldp_vc 300 scoped term definitions (over the limit)', () => diCredential({}, [...DI_CONTEXT, scopedTerms(300)])),
];

/**
 * An SD-JWT VC (no KB-JWT) signed by a key of the attacker's: with `x5c` it carries a chain copied
 * from a trusted issuer (the chain checks out, the signature does not), without one its issuer is
 * simply unknown. Either way the verifier refuses it; what matters is the work it causes first.
 */
const attackerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
function forgedSdJwt(claims, x5c) {
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const disclosures = Object.entries(claims).map(([name, value], i) => b64([`salt-${i}`, name, value]));
  const header = { alg: 'ES256', typ: 'dc+sd-jwt', ...(x5c ? { x5c } : {}) };
  const payload = { iss: 'https://issuer.example', vct: 'urn:eudi:pid:1', _sd_alg: 'sha-256', _sd: disclosures.map((d) => createHash('sha256').update(d).digest('base64url')) };
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: attackerKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `${input}.${signature}~${disclosures.join('~')}~`;
}
/** A PE definition whose one field runs `pattern` on `given_name`, and the submission answering it. */
const patternDefinition = (pattern) => ({
  type: 'DIF.PresentationExchange',
  presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'pid', format: { 'vc+sd-jwt': {} }, constraints: { fields: [{ path: ['$.given_name'], filter: { type: 'string', pattern } }] } }] },
});
const THOUSAND_CLAIMS = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`claim_${i}`, `value ${i}`]));
const PATTERN_SUBMISSION = JSON.stringify({ id: 's', definition_id: 'pd', descriptor_map: [{ id: 'pid', format: 'vc+sd-jwt', path: '$' }] });
// Exponential on a backtracking engine: each character added to the value doubles the work.
const NESTED_QUANTIFIER = '^(\\w+\\s?)*$';
// Cubic on a backtracking engine: three ways to split a run of digits, tried for every start.
const ADJACENT_QUANTIFIERS = '^\\d+\\s*\\d+\\s*\\d+$';

/**
 * `create`: the authorization body the attack targets (null: no authorization needed).
 * `request(ctx)`: {method, path, headers, body} relative to the authorizer's base URL.
 */
export const HOSTILE = [
  {
    name: 'mdoc shared-reference bomb',
    create: { responseMode: 'direct_post', query: MDOC_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ mdl: [sharedReferenceBomb()] }) }) }),
  },
  {
    name: 'mdoc nested tag-24',
    create: { responseMode: 'direct_post', query: MDOC_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ mdl: [nestedEmbeddedCbor()] }) }) }),
  },
  {
    name: 'mdoc huge declared length',
    create: { responseMode: 'direct_post', query: MDOC_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ mdl: [hugeDeclaredLength()] }) }) }),
  },
  {
    name: 'mdoc definite array of 690 K integers',
    create: { responseMode: 'direct_post', query: MDOC_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ mdl: [wideArray()] }) }) }),
  },
  {
    name: 'mdoc 8,000 issuer-signed items',
    create: { responseMode: 'direct_post', query: MDOC_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ mdl: [manyItems()] }) }) }),
  },
  annexCAttack('mdoc shared-reference bomb', () => sharedReferenceBomb()),
  annexCAttack('mdoc nested tag-24', () => nestedEmbeddedCbor()),
  annexCAttack('mdoc huge declared length', hugeDeclaredLength),
  annexCAttack('mdoc definite array of 690 K integers', wideArray),
  annexCAttack('mdoc 8,000 issuer-signed items', manyItems),
  {
    name: 'PE descriptor_map amplification',
    create: { responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } },
    request: ({ id, state }) => ({
      method: 'POST',
      path: `/openid4/vp/v1_0/${id}/direct_post`,
      ...form({
        state,
        vp_token: fakeSdJwt(400_000),
        presentation_submission: JSON.stringify({ id: 's', definition_id: 'pd', descriptor_map: Array.from({ length: 1_000 }, () => ({ id: 'pid', format: 'vc+sd-jwt', path: '$' })) }),
      }),
    }),
  },
  {
    name: 'PE pattern ^(\\w+\\s?)*$ on 26 × a + "!", unknown issuer',
    create: { responseMode: 'direct_post', query: patternDefinition(NESTED_QUANTIFIER) },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: forgedSdJwt({ given_name: `${'a'.repeat(26)}!` }), presentation_submission: PATTERN_SUBMISSION }) }),
  },
  {
    name: 'PE pattern ^(\\w+\\s?)*$ on 4,095 × a + "!", trusted chain copied',
    create: { responseMode: 'direct_post', query: patternDefinition(NESTED_QUANTIFIER) },
    request: ({ id, state, issuerX5c }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: forgedSdJwt({ given_name: `${'a'.repeat(4_095)}!` }, issuerX5c), presentation_submission: PATTERN_SUBMISSION }) }),
  },
  {
    name: 'PE pattern ^\\d+\\s*\\d+\\s*\\d+$ on 4,095 digits + "x", trusted chain copied',
    create: { responseMode: 'direct_post', query: patternDefinition(ADJACENT_QUANTIFIERS) },
    request: ({ id, state, issuerX5c }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: forgedSdJwt({ given_name: `${'1'.repeat(4_095)}x` }, issuerX5c), presentation_submission: PATTERN_SUBMISSION }) }),
  },
  {
    // At the limits: one pattern of almost the 1,000 RE2 instructions a definition may compile to
    // (the costliest shape to compile: a long optional repetition, anchored), tested on a value
    // that spends almost the whole per-response budget (1,002 × 984 units of 1,000,000).
    name: 'PE pattern ^[a-z]{0,490}$ at the limits, on 1,000 × a + "!", trusted chain copied',
    create: { responseMode: 'direct_post', query: patternDefinition('^[a-z]{0,490}$') },
    request: ({ id, state, issuerX5c }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: forgedSdJwt({ given_name: `${'a'.repeat(1_000)}!` }, issuerX5c), presentation_submission: PATTERN_SUBMISSION }) }),
  },
  {
    // A relying party's query times a wallet's values: without a bound, 2 s of matching.
    name: 'PE 1,500 fields of $.* (a query near the 64 KiB cap) over 1,000 disclosed claims, trusted chain copied',
    create: {
      responseMode: 'direct_post',
      query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'pid', format: { 'vc+sd-jwt': {} }, constraints: { fields: Array.from({ length: 1_500 }, () => ({ path: ['$.*'], filter: { const: 'x' } })) } }] } },
    },
    request: ({ id, state, issuerX5c }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: forgedSdJwt(THOUSAND_CLAIMS, issuerX5c), presentation_submission: PATTERN_SUBMISSION }) }),
  },
  {
    name: 'DCQL 1,200 claims of [list, null] (a query near the 64 KiB cap) over a 1,000-element list, trusted chain copied',
    create: { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: Array.from({ length: 1_200 }, (_, i) => ({ id: `c${i}`, path: ['list', null], values: ['x'] })) }] } } },
    request: ({ id, state, issuerX5c }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: JSON.stringify({ pid: [forgedSdJwt({ list: Array.from({ length: 1_000 }, (_, i) => `value ${i}`) }, issuerX5c)] }) }) }),
  },
  {
    name: 'vp_token nested 50k deep',
    create: { responseMode: 'direct_post', query: SD_JWT_DCQL },
    request: ({ id, state }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, ...form({ state, vp_token: `{"pid":${deepJson(50_000)}}` }) }),
  },
  {
    name: 'form with 100k parameters',
    create: { responseMode: 'direct_post', query: SD_JWT_DCQL },
    request: ({ id }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, type: 'application/x-www-form-urlencoded', body: Array.from({ length: 100_000 }, (_, i) => `p${i}=1`).join('&') }),
  },
  {
    // Decoded character by character, a megabyte of "+" (each a space) held the loop for ~0.3 s.
    name: 'form value of 1 MiB of "+"',
    create: { responseMode: 'direct_post.jwt', query: SD_JWT_DCQL },
    request: ({ id }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post.jwt`, type: 'application/x-www-form-urlencoded', body: `response=${'+'.repeat(1024 * 1024 - 64)}` }),
  },
  {
    name: 'form value of 1 MiB of broken escapes',
    create: { responseMode: 'direct_post', query: SD_JWT_DCQL },
    request: ({ id }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, type: 'application/x-www-form-urlencoded', body: `vp_token=${'%F'.repeat((1024 * 1024 - 64) / 2)}` }),
  },
  {
    // Each invalid byte decodes to U+FFFD, three bytes again when the part is percent-decoded.
    name: 'form value of 1 MiB of invalid UTF-8 and one escape',
    create: { responseMode: 'direct_post', query: SD_JWT_DCQL },
    request: ({ id }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post`, type: 'application/x-www-form-urlencoded', body: Buffer.concat([Buffer.from('vp_token=%41'), Buffer.alloc(1024 * 1024 - 64, 0x80)]) }),
  },
  {
    name: 'garbage JWE',
    create: { responseMode: 'direct_post.jwt', query: SD_JWT_DCQL },
    request: ({ id }) => ({ method: 'POST', path: `/openid4/vp/v1_0/${id}/direct_post.jwt`, ...form({ response: `${Buffer.from('{"alg":"none","enc":"A128GCM","zip":"DEF"}').toString('base64url')}.x.y.z.w` }) }),
  },
  {
    name: 'body over the limit',
    create: null,
    // The server answers 413 and closes without draining the upload: a client still writing may see a reset.
    closesConnection: true,
    request: () => ({ method: 'POST', path: '/openid4/vp/v1_0/response-code/resolve', type: 'application/json', body: `{"response_code":"${'a'.repeat(2 * 1024 * 1024)}"}`, rp: true }),
  },
  {
    name: 'RP call with a forged bearer',
    create: null,
    request: () => ({ method: 'GET', path: '/openid4/vp/v1_0/authorizations/AAAAAAAAAAAAAAAAAAAAAA/status', headers: { authorization: `Bearer ${'x'.repeat(4_000)}` } }),
  },
  {
    name: 'JSON with __proto__ keys',
    create: null,
    request: () => ({ method: 'POST', path: '/openid4/vp/v1_0/authorizations', type: 'application/json', body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}},"query":{"type":"DCQL","dcql":{"credentials":[{"id":"__proto__","format":"dc+sd-jwt"}]}}}', rp: true }),
  },
  ...HOSTILE_LDP,
];
