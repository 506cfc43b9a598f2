import fc from 'fast-check';
import { toBase64Url } from '@vp-authorizer/testing';

/** Keys that break naive object handling (prototype pollution, inherited lookups). */
export const POISON_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '...', '_sd', ''];


/** Strings: printable, full Unicode (incl. lone surrogates), control characters, poison keys. */
export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom(...POISON_KEYS) },
  // Lone surrogates survive JSON.stringify and become U+FFFD or fail in strict UTF-8 decoders.
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', 'a\ud83d', '\u0000', '\u2028', '\ufeff') },
);

export const key = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.constantFrom(...POISON_KEYS) });

/** JSON-ish values with poison keys, wrong types everywhere, moderate size. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    anyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A deeply nested JSON document as text (object/array chains beyond any sane depth limit). */
export const deepJsonText = fc
  .record({ depth: fc.integer({ min: 1, max: 3000 }), kind: fc.constantFrom('[', '{"a":', '{"__proto__":') })
  .map(({ depth, kind }) => `${kind.repeat(depth)}1${(kind === '[' ? ']' : '}').repeat(depth)}`);

/** Base64url segments: valid JSON objects, JSON non-objects, garbage, invalid UTF-8, padding. */
export const segment = fc.oneof(
  hostileJson.map((v) => toBase64Url(JSON.stringify(v) ?? 'null')),
  fc.dictionary(key, hostileJson, { maxKeys: 5 }).map((o) => toBase64Url(JSON.stringify(o))),
  fc.uint8Array({ maxLength: 40 }).map(toBase64Url),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '=', 'e30', 'e30=', 'e30.', toBase64Url(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])), toBase64Url('{"a":1}') + '!', 'A', 'AAAAA'),
);

const objectSegment = fc.dictionary(key, hostileJson, { maxKeys: 4 }).map((o) => toBase64Url(JSON.stringify(o)));

/** Compact-JWT-like strings: 0..6 segments joined by dots, sometimes with tildes or spaces; a share is well-formed. */
export const jwtLike = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(objectSegment, objectSegment, fc.constantFrom('c2ln', 'AAAA', '_-_-')).map((p) => p.join('.')) },
  { weight: 4, arbitrary: fc.array(segment, { minLength: 0, maxLength: 6 }).map((parts) => parts.join('.')) },
  { weight: 1, arbitrary: fc.tuple(segment, segment, segment).map(([a, b, c]) => ` ${a}.${b}.${c}\n`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);


/** Raw bytes that are often invalid UTF-8 (overlongs, lone continuation bytes, surrogates, truncations). */
export const invalidUtf8 = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 8 }),
      fc.constantFrom(
        new Uint8Array([0xc0, 0xaf]),
        new Uint8Array([0xed, 0xa0, 0x80]),
        new Uint8Array([0xf4, 0x90, 0x80, 0x80]),
        new Uint8Array([0x80]),
        new Uint8Array([0xe2, 0x82]),
        new Uint8Array([0xef, 0xbb, 0xbf]),
      ),
      fc.string({ maxLength: 8 }).map((s) => new TextEncoder().encode(s)),
    ),
    { maxLength: 12 },
  )
  .map((chunks) => new Uint8Array(Buffer.concat(chunks)));

/** Every way a caller can get Authorization wrong (and the right ones). */
export const bearer = (good: string, other: string) =>
  fc.oneof(
    fc.constantFrom(`Bearer ${good}`, `bearer ${good}`, `Bearer ${other}`, `Bearer   ${good}  `),
    fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', `Basic ${toBase64Url(`u:${good}`)}`, `Bearer ${good}x`, `Bearer ${good.slice(0, -1)}`, `Bearer ${good} ${good}`, `Token ${good}`),
    fc.string({ unit: fc.constantFrom(...'Bearer abcXYZ0123456789-._~+/= \t'.split('')), maxLength: 40 }),
    fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`),
    fc.constant(`Bearer ${'k'.repeat(5000)}`),
  );

export const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON ; charset=latin1',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=utf-8',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/jwt',
    'application/octet-stream',
    'application/json, application/x-www-form-urlencoded',
    ';',
    '',
  ),
  fc.string({ unit: fc.constantFrom(...'abcjson/x-www-form;= '.split('')), maxLength: 30 }),
);

export const httpMethod = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 2, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'get', 'post', 'TRACE') },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')), minLength: 1, maxLength: 10 }) },
);

/** Form bodies: duplicates, poison keys, JSON-in-form, percent-encoding errors, empty names. */
export const formText = (fields: fc.Arbitrary<string>[]) =>
  fc
    .array(
      fc.tuple(fc.oneof(...fields, key), fc.oneof(hostileJson.map((v) => JSON.stringify(v) ?? ''), anyString, jwtLike)),
      { maxLength: 8 },
    )
    .chain((pairs) =>
      fc.oneof(
        fc.constant(new URLSearchParams(pairs).toString()),
        // Raw, not percent-encoded: stray % sequences, '+', '&&', '=' without a name.
        fc.constant(pairs.map(([k, v]) => `${k}=${v}`).join('&')),
        fc.constant(`${new URLSearchParams(pairs).toString()}&%ZZ=%E0%A4%A&=x&&a`),
      ),
    );
