import { createHash } from 'node:crypto';
import { toBase64Url } from '@vp-authorizer/testing';

/** Hand-built hostile inputs, each within the default 1 MiB body limit. Byte-level CBOR on purpose: encoders refuse to produce most of it. */


/** CBOR head: major type + argument in the shortest form (or a forced 8-byte form). */
export function head(major: number, n: number | bigint, forceLong = false): Buffer {
  const m = major << 5;
  const v = BigInt(n);
  if (!forceLong && v < 24n) return Buffer.from([m | Number(v)]);
  if (!forceLong && v < 0x100n) return Buffer.from([m | 24, Number(v)]);
  if (!forceLong && v < 0x10000n) return Buffer.from([m | 25, Number(v >> 8n), Number(v & 0xffn)]);
  if (!forceLong && v < 0x100000000n) {
    const b = Buffer.alloc(5);
    b[0] = m | 26;
    b.writeUInt32BE(Number(v), 1);
    return b;
  }
  const b = Buffer.alloc(9);
  b[0] = m | 27;
  b.writeBigUInt64BE(v, 1);
  return b;
}

const text = (s: string) => Buffer.concat([head(3, Buffer.byteLength(s)), Buffer.from(s)]);
const bstr = (b: Uint8Array) => Buffer.concat([head(2, b.length), b]);
const tag = (t: number, content: Uint8Array) => Buffer.concat([head(6, t), content]);
const map = (entries: [Buffer, Buffer][]) => Buffer.concat([head(5, entries.length), ...entries.flat()]);
const array = (items: Buffer[]) => Buffer.concat([head(4, items.length), ...items]);

/** An IssuerSignedItem `#6.24(bstr .cbor {digestID, random, elementIdentifier, elementValue})` with a raw elementValue. */
export function issuerSignedItem(elementValue: Uint8Array, id = 0): Buffer {
  const item = map([
    [text('digestID'), head(0, id)],
    [text('random'), bstr(new Uint8Array(16))],
    [text('elementIdentifier'), text('family_name')],
    [text('elementValue'), Buffer.from(elementValue)],
  ]);
  return tag(24, bstr(item));
}

/** base64url DeviceResponse with one mDL document whose namespace holds `items` (raw CBOR, each usually an issuerSignedItem). */
export function deviceResponse(items: Uint8Array[], documentsHead?: Buffer): string {
  const issuerAuth = array([bstr(new Uint8Array(3)), map([]), bstr(new Uint8Array(8)), bstr(new Uint8Array(64))]);
  const document = map([
    [text('docType'), text('org.iso.18013.5.1.mDL')],
    [text('issuerSigned'), map([[text('nameSpaces'), map([[text('org.iso.18013.5.1'), array(items.map((i) => Buffer.from(i)))]])], [text('issuerAuth'), issuerAuth]])],
  ]);
  const documents = documentsHead ? Buffer.concat([documentsHead, document]) : array([document]);
  return toBase64Url(map([[text('version'), text('1.0')], [text('documents'), documents], [text('status'), head(0, 0)]]));
}

/** `[#6.28([0 × width]), #6.29(0) × refs]`: one shared array referenced `refs` times (width × refs nodes once expanded). */
export function sharedReferences(width: number, refs: number): Buffer {
  const shared = tag(28, array(Array.from({ length: width }, () => head(0, 0))));
  return Buffer.concat([head(4, refs + 1), shared, Buffer.concat(Array.from({ length: refs }, () => Buffer.from([0xd8, 29, 0x00])))]);
}

/** Exponential sharing: level k is a shared pair of references to level k-1 (2^levels leaves from a few hundred bytes). */
export function sharedReferenceLaughs(levels: number): Buffer {
  // Level k (shared index k) is a pair of references to level k-1, which is complete by then.
  const parts: Buffer[] = [tag(28, array([head(0, 1), head(0, 2)]))];
  for (let k = 1; k <= levels; k++) {
    const ref = Buffer.concat([Buffer.from([0xd8, 29]), head(0, k - 1)]);
    parts.push(tag(28, array([ref, ref])));
  }
  return array(parts);
}

/** `#6.24(bstr .cbor #6.24(bstr .cbor …))` nested until `bytes` long; built outside-in without quadratic copying. */
export function nestedTag24(bytes: number): Buffer {
  const lengths = [1];
  while (lengths[lengths.length - 1]! < bytes) {
    const inner = lengths[lengths.length - 1]!;
    lengths.push(inner + 2 + head(2, inner).length);
  }
  lengths.pop();
  const out = Buffer.alloc(lengths[lengths.length - 1]!);
  let pos = 0;
  for (let level = lengths.length - 1; level >= 1; level--) {
    out[pos++] = 0xd8;
    out[pos++] = 24;
    const h = head(2, lengths[level - 1]!);
    h.copy(out, pos);
    pos += h.length;
  }
  out[pos] = 0x01;
  return out;
}

// ------------------------------------------------------------------ SD-JWT

const sha = (s: string) => createHash('sha256').update(s, 'ascii').digest('base64url');

/** A structurally valid SD-JWT (digests match, signature is junk) with `count` disclosures of `size` bytes each. */
export function bigSdJwt(count: number, size: number): string {
  const disclosures = Array.from({ length: count }, (_, i) => toBase64Url(JSON.stringify([`s${i}`, `claim_${i}`, 'v'.repeat(size)])));
  const payload = { iss: 'https://issuer.example', vct: 'urn:eudi:pid:1', _sd: disclosures.map(sha) };
  const jwt = `${toBase64Url('{"alg":"ES256","typ":"dc+sd-jwt"}')}.${toBase64Url(JSON.stringify(payload))}.c2ln`;
  return `${jwt}~${disclosures.join('~')}~`;
}

/**
 * An SD-JWT VC (no KB-JWT) whose disclosures carry `claims`: digests match, the signature is junk.
 * The validator matches it against the query while the verifier, at the same time, refuses it.
 */
export function sdJwtDisclosing(claims: Record<string, unknown>): string {
  const disclosures = Object.entries(claims).map(([name, value], i) => toBase64Url(JSON.stringify([`salt-${i}`, name, value])));
  const payload = { iss: 'https://issuer.example', vct: 'urn:eudi:pid:1', _sd_alg: 'sha-256', _sd: disclosures.map(sha) };
  return `${toBase64Url('{"alg":"ES256","typ":"dc+sd-jwt"}')}.${toBase64Url(JSON.stringify(payload))}.c2ln~${disclosures.join('~')}~`;
}

/** JSON text nested `depth` deep and padded (wide string member) to about `totalBytes`. */
export function deepJson(depth: number, totalBytes: number): string {
  const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const pad = Math.max(0, totalBytes - nested.length - 20);
  return `{"pad":"${'x'.repeat(pad)}","a":${nested}}`;
}

/**
 * Hostile Data Integrity credentials (ldp_vc): JSON-LD documents whose expansion or RDF
 * canonicalization is costly, each carrying a well-formed DataIntegrityProof (a valid did:key,
 * a signature that cannot match) so that the verifier does all the work before the signature
 * check. Sizes sit at the local verifier's default document limits unless the name says "over".
 */
const DI_ISSUER = 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';
const DI_CONTEXT = ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'];
const diCredential = (subject: Record<string, unknown>, context: unknown[] = DI_CONTEXT): Record<string, unknown> => ({
  '@context': context,
  type: ['VerifiableCredential'],
  issuer: DI_ISSUER,
  validFrom: '2024-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:holder', ...subject },
  proof: {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-rdfc-2022',
    proofPurpose: 'assertionMethod',
    verificationMethod: `${DI_ISSUER}#${DI_ISSUER.slice('did:key:'.length)}`,
    created: '2024-01-01T00:00:00Z',
    proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKiPaeCuyFF5y6gbjGT',
  },
});
const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
/** `n` term definitions, each with a scoped context of `inner` terms: JSON-LD processes each over a copy of the whole active context. */
const scopedTerms = (n: number, inner = 1) =>
  Object.fromEntries(range(n, (i) => [`t${i}`, { '@id': `https://e.example/t${i}`, '@context': Object.fromEntries(range(inner, (j) => [`u${i}_${j}`, `https://e.example/u${i}_${j}`])) }]));
const plainTerms = (n: number) => Object.fromEntries(range(n, (i) => [`p${i}`, `https://e.example/p${i}`]));

export const HOSTILE_DATA_INTEGRITY: [name: string, build: () => Record<string, unknown>, expectedCode: string][] = [
  // A complete graph of blank nodes: every node looks the same to first-degree hashing, the
  // textbook poison graph of RDF canonicalization. References as strings (a term coerced to @id).
  [
    'poison graph: 11 blank nodes, all linked (110 references)',
    () => diCredential({ graph: range(11, (i) => ({ id: `_:b${i}`, knows: range(11, (j) => `_:b${j}`).filter((_, j) => j !== i) })) }, [...DI_CONTEXT, { knows: { '@id': 'https://example.org/knows', '@type': '@id' } }]),
    'data_integrity.limit_exceeded',
  ],
  ['poison graph: 11 blank node objects, all linked', () => diCredential({ graph: range(11, (i) => ({ id: `_:b${i}`, knows: range(11, (j) => ({ id: `_:b${j}` })).filter((_, j) => j !== i) })) }), 'data_integrity.limit_exceeded'],
  [
    'over: poison graph of 43 blank nodes, all linked (1,850 references)',
    () => diCredential({ graph: range(43, (i) => ({ id: `_:b${i}`, knows: range(43, (j) => `_:b${j}`).filter((_, j) => j !== i) })) }, [...DI_CONTEXT, { knows: { '@id': 'https://example.org/knows', '@type': '@id' } }]),
    'data_integrity.limit_exceeded',
  ],
  ['blank-node chain 20 deep (same predicate)', () => diCredential({ n: range(20, () => 0).reduce<Record<string, unknown>>((inner) => ({ n: inner }), { v: 'x' }) }), 'data_integrity.limit_exceeded'],
  ['wide: 15 arrays of 128 strings', () => diCredential(Object.fromEntries(range(15, (i) => [`p${i}`, range(128, (j) => `x${j}`)]))), 'proof.signature_invalid'],
  ['wide: 124 distinct blank nodes', () => diCredential({ items: range(124, (j) => ({ a: `x${j}`, b: `y${j}`, c: j })) }), 'proof.signature_invalid'],
  ['wide: 40 identical blank-node trees', () => diCredential({ items: range(40, () => ({ a: { b: { c: 'same' } } })) }), 'proof.signature_invalid'],
  ['over: an array of 30,000 strings', () => diCredential({ items: range(30_000, (j) => `x${j}`) }), 'data_integrity.limit_exceeded'],
  ['over: 2,100 strings in arrays of 100', () => diCredential(Object.fromEntries(range(21, (i) => [`p${i}`, range(100, (j) => `x${j}`)]))), 'data_integrity.limit_exceeded'],
  ['over: 5,000 blank nodes', () => diCredential({ items: range(50, () => ({ items: range(100, () => ({})) })) }), 'data_integrity.limit_exceeded'],
  ['over: nested 40 deep', () => diCredential({ n: range(40, () => 0).reduce<unknown>((inner) => [inner], 'x') }), 'data_integrity.limit_exceeded'],
  // Contexts the credential defines itself: each scoped context is processed, used or not.
  ['scoped: 31 scoped term definitions of 7 terms each, all used (32 contexts, 248 terms)', () => diCredential(Object.fromEntries(range(31, (i) => [`t${i}`, Object.fromEntries(range(7, (j) => [`u${i}_${j}`, 'x']))])), [...DI_CONTEXT, scopedTerms(31, 7)]), 'proof.signature_invalid'],
  ['embedded: 255 terms, 120 nodes using them', () => diCredential({ items: range(120, (j) => ({ p0: `x${j}` })) }, [...DI_CONTEXT, plainTerms(255)]), 'proof.signature_invalid'],
  ['over: 300 scoped term definitions', () => diCredential({}, [...DI_CONTEXT, scopedTerms(300)]), 'data_integrity.limit_exceeded'],
  ['over: 1,000 terms in an embedded context', () => diCredential({}, [...DI_CONTEXT, plainTerms(1_000)]), 'data_integrity.limit_exceeded'],
];
