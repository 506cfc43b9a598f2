import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { toBase64Url } from '@vp-authorizer/testing';
import { Encoder } from 'cbor-x';
import { POISON_KEYS, anyString, hostileJson, jwtLike, key, segment } from './arbitraries.js';

/** The encoder wallets' CBOR is built with here: maps stay Maps, byte strings untagged (as core's own parser fixtures encode). */
export const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

export const FORMATS = ['dc+sd-jwt', 'vc+sd-jwt', 'mso_mdoc', 'jwt_vc_json', 'jwt_vp_json', 'jwt_vp', 'jwt_vc', 'ldp_vp', 'ldp_vc', 'unknown_fmt', '__proto__', 'constructor'];

// ------------------------------------------------------------------ SD-JWT

const sha256 = (s: string) => createHash('sha256').update(s, 'ascii').digest('base64url');

/**
 * SD-JWTs whose digests really match: disclosures may reference earlier ones (nested `_sd`,
 * `{"...": d}` array elements), the payload may reference any of them once or twice (duplicate
 * references are the cycle / expansion vector), claim names include poison keys.
 */
export const structuredSdJwt = fc
  .record({
    disclosures: fc.array(
      fc.record({ salt: fc.string({ maxLength: 6 }), name: fc.option(key, { nil: undefined }), value: hostileJson, refs: fc.array(fc.nat(), { maxLength: 3 }), asArray: fc.boolean() }),
      { maxLength: 7 },
    ),
    topRefs: fc.array(fc.nat(), { maxLength: 8 }),
    arrayRefs: fc.array(fc.nat(), { maxLength: 3 }),
    // Each member is mostly right, so both outcomes are common (a spec wrong everywhere only tests the first check).
    sdAlg: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(undefined, 'sha-256', 'SHA-256') }, { weight: 1, arbitrary: fc.constantFrom('md5', 7, null) }),
    extra: fc.dictionary(key, hostileJson, { maxKeys: 3 }),
    header: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(toBase64Url('{"alg":"ES256","typ":"dc+sd-jwt"}'), toBase64Url('{"alg":"none"}')) }, { weight: 1, arbitrary: fc.constant(toBase64Url('[]')) }),
    sig: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('c2ln', 'A') }, { weight: 1, arbitrary: fc.constantFrom('', 'c2ln!') }),
    kb: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 2, arbitrary: fc.constant(`${toBase64Url('{"alg":"ES256","typ":"kb+jwt"}')}.${toBase64Url('{"sd_hash":"x"}')}.c2ln`) }, { weight: 1, arbitrary: jwtLike }),
    junk: fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.constantFrom('', '~', 'AAAA', '!!'), { minLength: 1, maxLength: 2 }) }),
  })
  .map((spec) => {
    const encoded: string[] = [];
    const digests: string[] = [];
    spec.disclosures.forEach((d, i) => {
      const refs = i === 0 ? [] : d.refs.map((r) => digests[r % i]!);
      let value = d.value;
      if (refs.length > 0) value = d.asArray ? refs.map((r) => ({ '...': r })) : { _sd: refs };
      const array = d.name === undefined ? [d.salt, value] : [d.salt, d.name, value];
      const e = toBase64Url(JSON.stringify(array));
      encoded.push(e);
      digests.push(sha256(e));
    });
    const pick = (refs: number[]) => (digests.length === 0 ? [] : refs.map((r) => digests[r % digests.length]!));
    const payload: Record<string, unknown> = { iss: 'https://issuer.example', vct: 'urn:x', ...spec.extra, _sd: pick(spec.topRefs), list: pick(spec.arrayRefs).map((r) => ({ '...': r })) };
    if (spec.sdAlg !== undefined) payload._sd_alg = spec.sdAlg;
    const jwt = `${spec.header}.${toBase64Url(JSON.stringify(payload))}.${spec.sig}`;
    return [jwt, ...encoded, ...spec.junk, spec.kb].join('~');
  });

/** Tilde-separated junk built from JWT-ish and base64url segments. */
export const sdJwtLike = fc.oneof(
  fc.array(fc.oneof(jwtLike, segment, hostileJson.map((v) => toBase64Url(JSON.stringify(v) ?? ''))), { maxLength: 6 }).map((p) => p.join('~')),
  fc.string({ maxLength: 40 }),
  hostileJson,
);

// ------------------------------------------------------------------ CBOR / mdoc

/**
 * cbor-x's Tag class, taken from a decoded unknown tag: the class of the cbor-x core loads, which
 * its `instanceof Tag` checks use (one version of cbor-x in the workspace, so the same module).
 */
type TagClass = new (value: unknown, tag: number) => { value: unknown; tag: number };
let tagClass: TagClass | undefined;
export function Tag(value: unknown, tag: number): object {
  // Resolved lazily: module initialisation order inside core's import graph is not ours to rely on.
  tagClass ??= (cbor.decode(new Uint8Array([0xd8, 0x64, 0x00])) as object).constructor as TagClass;
  return new tagClass(value, tag);
}

/** CBOR values as cbor-x encodes them: maps with any keys, tags, byte strings, bigints, dates. */
export const cborValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.constant(undefined),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    anyString,
    fc.uint8Array({ maxLength: 12 }),
    fc.date({ noInvalidDate: false }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(key, fc.integer(), fc.constant(null)), tie('v')), { maxLength: 4 }).map((entries) => new Map(entries)),
    fc.tuple(fc.constantFrom(0, 1, 18, 1004, 28, 29, 55799, 121), tie('v')).map(([tag, v]) => Tag(v, tag)),
    tie('v').map((v) => Tag(cbor.encode(v), 24)),
    fc.uint8Array({ maxLength: 10 }).map((b) => Tag(b, 24)),
  ),
})).v;

/**
 * Raw CBOR token streams: shared references (tags 28/29), indefinite lengths with and without
 * breaks, huge declared lengths with few bytes, nested tag 24, half-floats, undefined simple values.
 */
const token = fc.oneof(
  fc.constantFrom(
    [0xd8, 28], [0xd8, 29, 0x00], [0xd8, 29, 0x01], [0xd8, 29, 0x18, 0xff], [0xd8, 24], [0xd8, 24, 0x41], [0xd2],
    [0x9f], [0xbf], [0x5f], [0x7f], [0xff], [0x80], [0xa0], [0x81], [0x82], [0xa1],
    [0x9a, 0xff, 0xff, 0xff, 0xff], [0x5b, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0x7a, 0x7f, 0xff, 0xff, 0xff], [0xbb, 0x7f, 0, 0, 0, 0, 0, 0, 0],
    [0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0xf9, 0x7c, 0x00], [0xf7], [0xf8, 0x20], [0xc1, 0x1b, 0x7f, 0, 0, 0, 0, 0, 0, 0],
    [0x67, ...Buffer.from('version')], [0x66, ...Buffer.from('status')], [0x69, ...Buffer.from('documents')], [0x63, 0xed, 0xa0, 0x80],
  ),
  fc.uint8Array({ maxLength: 6 }).map((b) => [...b]),
  cborValue.map((v) => [...cbor.encode(v)]),
);
export const cborTokens = fc.array(token, { maxLength: 14 }).map((ts) => new Uint8Array(ts.flat()));

const issuerSignedItem = fc.oneof(
  { weight: 8, arbitrary: fc.record({ digestID: fc.oneof({ weight: 6, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), anyString) }), elementIdentifier: fc.oneof({ weight: 6, arbitrary: anyString }, { weight: 1, arbitrary: fc.integer() }), elementValue: cborValue, drop: fc.constantFrom('', '', '', '', 'digestID', 'elementValue') }).map((i) => {
    const m = new Map<unknown, unknown>([['digestID', i.digestID], ['random', new Uint8Array(4)], ['elementIdentifier', i.elementIdentifier], ['elementValue', i.elementValue]]);
    if (i.drop) m.delete(i.drop);
    return Tag(cbor.encode(m), 24);
  }) },
  { weight: 1, arbitrary: cborValue },
);

const coseSign1 = fc.oneof(
  { weight: 3, arbitrary: fc.constant([new Uint8Array(3), new Map(), new Uint8Array(5), new Uint8Array(64)]) },
  fc.constant(Tag([new Uint8Array(3), new Map(), null, new Uint8Array(64)], 18)),
  cborValue,
);

const documentMap = fc
  .record({
    docType: fc.oneof({ weight: 4, arbitrary: fc.constant('org.iso.18013.5.1.mDL') }, { weight: 1, arbitrary: fc.oneof(anyString, fc.integer()) }),
    nameSpaces: fc.oneof(
      { weight: 6, arbitrary: fc.array(fc.tuple(fc.oneof({ weight: 6, arbitrary: key }, { weight: 1, arbitrary: fc.integer() }), fc.oneof({ weight: 6, arbitrary: fc.array(issuerSignedItem, { maxLength: 4 }) }, { weight: 1, arbitrary: cborValue })), { maxLength: 3 }).map((e) => new Map(e)) },
      { weight: 1, arbitrary: fc.oneof(cborValue, fc.constant(undefined)) },
    ),
    issuerAuth: coseSign1,
    deviceSigned: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(undefined, new Map([['deviceAuth', new Map([['deviceSignature', []]])]]), new Map([['deviceAuth', new Map([['deviceMac', 1]])]])) }, { weight: 1, arbitrary: cborValue }),
  })
  .map((d) => {
    const issuerSigned = new Map<string, unknown>([['issuerAuth', d.issuerAuth]]);
    if (d.nameSpaces !== undefined) issuerSigned.set('nameSpaces', d.nameSpaces);
    const doc = new Map<string, unknown>([['docType', d.docType], ['issuerSigned', issuerSigned]]);
    if (d.deviceSigned !== undefined) doc.set('deviceSigned', d.deviceSigned);
    return doc;
  });

/** DeviceResponse-shaped maps with every member sometimes wrong. */
export const deviceResponse = fc
  .record({
    version: fc.oneof({ weight: 6, arbitrary: fc.constant('1.0') }, { weight: 1, arbitrary: cborValue }),
    status: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(0, 10, 20) }, { weight: 1, arbitrary: fc.oneof(fc.double(), fc.bigInt(), cborValue) }),
    documents: fc.oneof({ weight: 6, arbitrary: fc.array(fc.oneof({ weight: 8, arbitrary: documentMap }, { weight: 1, arbitrary: cborValue }), { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: cborValue }),
  })
  .map((r) => toBase64Url(cbor.encode(new Map<string, unknown>([['version', r.version], ['status', r.status], ['documents', r.documents]]))));

// ------------------------------------------------------------------ queries

export const dcqlQuery = fc.record({
  credentials: fc.uniqueArray(
    fc.record({ id: fc.constantFrom('pid', 'mdl', 'a', 'b', '__proto__', 'constructor'), format: fc.constantFrom(...FORMATS), multiple: fc.option(fc.boolean(), { nil: undefined }) }),
    { minLength: 1, maxLength: 3, selector: (c) => c.id },
  ),
});

export const presentationDefinition = fc.record({
  id: fc.constantFrom('pd', 'x'),
  input_descriptors: fc.uniqueArray(
    fc.record({ id: fc.constantFrom('d1', 'd2', '__proto__', 'toString'), format: fc.option(fc.dictionary(fc.constantFrom(...FORMATS), fc.constant({})), { nil: undefined }) }).map((d) => (d.format === undefined ? { id: d.id } : d)),
    { minLength: 1, maxLength: 3, selector: (d) => d.id },
  ),
});

export const descriptorPath = fc.oneof(fc.constantFrom('$', '$[0]', '$[1]', '$[999999]', '$[1000000]', '$[01]', '$.vp', '$[-1]', '', '$[0][0]'), anyString);

export const submission = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      id: fc.oneof({ weight: 6, arbitrary: fc.constant('s') }, { weight: 1, arbitrary: anyString }),
      definition_id: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('pd', 'x') }, { weight: 1, arbitrary: fc.oneof(anyString, fc.integer()) }),
      descriptor_map: fc.array(
        fc.record({
          id: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('d1', 'd2', '__proto__', 'toString', 'hasOwnProperty') }, { weight: 1, arbitrary: anyString }),
          format: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FORMATS) }, { weight: 1, arbitrary: anyString }),
          path: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('$', '$[0]', '$[1]') }, { weight: 1, arbitrary: descriptorPath }),
          path_nested: fc.option(fc.record({ format: fc.constantFrom(...FORMATS), path: descriptorPath }), { nil: undefined }),
        }),
        { maxLength: 5 },
      ),
    }),
  },
  { weight: 1, arbitrary: hostileJson },
);

/** Presentation values for any format: JWT-ish strings, SD-JWT-ish, DeviceResponses, objects. */
export const presentationValue = fc.oneof(jwtLike, sdJwtLike, structuredSdJwt, deviceResponse, hostileJson, fc.dictionary(key, hostileJson, { maxKeys: 3 }));

/** A presentation that decodes for its format: a JSON object (ldp) or a digest-consistent SD-JWT. */
const decodable = fc.oneof(
  fc.dictionary(key, hostileJson, { maxKeys: 3 }).map((value) => ({ format: 'ldp_vp', value: value as unknown })),
  structuredSdJwt.map((value) => ({ format: 'vc+sd-jwt', value: value as unknown })),
);

/** Definition, submission and vp_token that agree with each other, so the success path is reached too. */
export const coherentPe = fc.array(decodable, { minLength: 1, maxLength: 4 }).map((items) => ({
  definition: { id: 'pd', input_descriptors: [{ id: 'd1' }, { id: 'd2', format: { ldp_vp: {}, 'vc+sd-jwt': {} } }] },
  submission: { id: 's', definition_id: 'pd', descriptor_map: items.map((item, i) => ({ id: i % 2 === 0 ? 'd1' : 'd2', format: item.format, path: items.length === 1 ? '$' : `$[${i}]` })) },
  vpToken: items.length === 1 ? items[0]!.value : items.map((item) => item.value),
}));

/** A DCQL query and a vp_token keyed by its ids with decodable presentations (all queries answered). */
export const coherentDcql = fc.uniqueArray(fc.tuple(fc.constantFrom('pid', 'a', 'b', '__proto__'), decodable), { minLength: 1, maxLength: 3, selector: ([id]) => id }).map((entries) => ({
  dcql: { credentials: entries.map(([id, item]) => ({ id, format: item.format === 'ldp_vp' ? 'ldp_vc' : 'dc+sd-jwt' })) },
  vpToken: Object.fromEntries(entries.map(([id, item]) => [id, [item.value]])),
}));
