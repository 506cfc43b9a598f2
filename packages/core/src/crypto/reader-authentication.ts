import { X509Certificate, verify } from 'node:crypto';
import { Decoder, Encoder, Tag } from 'cbor-x';

// Plain byte strings (no tag 64), no record extension: the bytes signed here are compared with a
// signature captured from a deployed verifier (multipaz, shared/testdata/annexc-vectors.json).
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

/**
 * COSE algorithm labels a readerAuth may carry, both ECDSA P-256 with SHA-256: `ES256` (-7, what
 * ISO/IEC 18013-5:2021 names) and `ESP256` (-9, the fully specified label of RFC 9864, which
 * multipaz's deployed verifier sends). The signature bytes are the same; only the label differs.
 */
export const READER_AUTH_ALGS = { ES256: -7, ESP256: -9 } as const;
export type ReaderAuthAlg = keyof typeof READER_AUTH_ALGS;

const X5CHAIN = 33;
const SIGNATURE_BYTES = 64;

/** What signs readerAuth: the COSE label, the certificate chain (DER, leaf first) and the raw `r || s` signer. */
export interface ReaderAuthSigner {
  alg: ReaderAuthAlg;
  x5chain: readonly Uint8Array[];
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/**
 * `ReaderAuthenticationBytes = #6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript,
 * ItemsRequestBytes])` (ISO/IEC 18013-5 9.1.4), the detached payload of readerAuth.
 * `sessionTranscript` is the CBOR SessionTranscript (embedded as the structure, not as a bstr),
 * `itemsRequestBytes` the CBOR ItemsRequest (embedded tag-24-wrapped, as the DocRequest carries it).
 */
export function readerAuthenticationBytes(sessionTranscript: Uint8Array, itemsRequestBytes: Uint8Array): Uint8Array {
  const authentication = cbor.encode(['ReaderAuthentication', decoder.decode(sessionTranscript), new Tag(itemsRequestBytes, 24)]);
  return new Uint8Array(cbor.encode(new Tag(new Uint8Array(authentication), 24)));
}

const sigStructure = (protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array => new Uint8Array(cbor.encode(['Signature1', protectedBytes, new Uint8Array(0), payload]));

/**
 * readerAuth: an untagged COSE_Sign1 `[protected {1: alg}, {33: x5chain}, nil, signature]` with
 * a detached payload (ISO/IEC 18013-5 9.1.4); x5chain is one bstr for a single certificate, else
 * an array (RFC 9360).
 */
export async function signReaderAuth(signer: ReaderAuthSigner, sessionTranscript: Uint8Array, itemsRequestBytes: Uint8Array): Promise<unknown[]> {
  const protectedBytes = new Uint8Array(cbor.encode(new Map([[1, READER_AUTH_ALGS[signer.alg]]])));
  const signature = await signer.sign(sigStructure(protectedBytes, readerAuthenticationBytes(sessionTranscript, itemsRequestBytes)));
  const x5chain = signer.x5chain.length === 1 ? signer.x5chain[0] : [...signer.x5chain];
  return [protectedBytes, new Map([[X5CHAIN, x5chain]]), null, signature];
}

/** The outcome of checking a readerAuth: the reader's chain (DER, leaf first) when its signature holds. */
export type ReaderAuthVerification =
  | { valid: true; alg: ReaderAuthAlg; certificateChain: Uint8Array[]; leaf: X509Certificate }
  | { valid: false; reason: string };

const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array;

/**
 * Checks a DocRequest's readerAuth as a wallet does: a COSE_Sign1 with a detached payload, alg
 * ES256 or ESP256, an x5chain whose leaf holds a P-256 key, and a signature over the
 * ReaderAuthentication of `sessionTranscript` and `itemsRequestBytes` under that key. Whether the
 * chain leads to a reader CA the wallet trusts is the caller's decision.
 */
export function verifyReaderAuth(readerAuth: unknown, sessionTranscript: Uint8Array, itemsRequestBytes: Uint8Array): ReaderAuthVerification {
  const fail = (reason: string): ReaderAuthVerification => ({ valid: false, reason });
  const sign1 = readerAuth instanceof Tag && readerAuth.tag === 18 ? readerAuth.value : readerAuth;
  if (!Array.isArray(sign1) || sign1.length !== 4) return fail('readerAuth is not a COSE_Sign1');
  const [protectedBytes, unprotected, payload, signature] = sign1 as unknown[];
  if (!isBytes(protectedBytes) || !(unprotected instanceof Map) || !isBytes(signature)) return fail('readerAuth is not a COSE_Sign1');
  if (payload !== null) return fail('readerAuth must have a detached payload (nil)');
  let header: unknown;
  try {
    header = decoder.decode(protectedBytes);
  } catch {
    return fail('readerAuth has an undecodable protected header');
  }
  const label = header instanceof Map ? header.get(1) : undefined;
  const alg = (Object.keys(READER_AUTH_ALGS) as ReaderAuthAlg[]).find((name) => READER_AUTH_ALGS[name] === label);
  if (!alg) return fail(`readerAuth uses the COSE algorithm ${String(label)}; ES256 (-7) or ESP256 (-9) expected`);
  const x5chain = (header as Map<unknown, unknown>).get(X5CHAIN) ?? unprotected.get(X5CHAIN);
  const certificateChain = isBytes(x5chain) ? [x5chain] : Array.isArray(x5chain) && x5chain.length > 0 && x5chain.every(isBytes) ? (x5chain as Uint8Array[]) : undefined;
  if (!certificateChain) return fail('readerAuth carries no x5chain');
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(certificateChain[0]!);
  } catch {
    return fail('the x5chain leaf of readerAuth is not an X.509 certificate');
  }
  if (leaf.publicKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return fail('the reader certificate does not hold a P-256 key');
  if (signature.length !== SIGNATURE_BYTES) return fail('the readerAuth signature is not 64 bytes (r || s)');
  const signed = sigStructure(protectedBytes, readerAuthenticationBytes(sessionTranscript, itemsRequestBytes));
  if (!verify('sha256', signed, { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, signature)) {
    return fail('the readerAuth signature does not verify over this SessionTranscript and ItemsRequest');
  }
  return { valid: true, alg, certificateChain: certificateChain.map((c) => new Uint8Array(c)), leaf };
}
