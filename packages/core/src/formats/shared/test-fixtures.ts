/**
 * Test-only builders (not exported from the package): real ES256 signatures, SD-JWTs with
 * digests computed here, and mdoc DeviceResponses encoded by hand with cbor-x.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { Encoder, Tag } from 'cbor-x';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { expect } from 'vitest';
import { FormatFailure } from '../format-error.js';

const b64u = (data: Uint8Array | string): string => Buffer.from(data).toString('base64url');

export interface TestKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function es256Key(): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicJwk: await exportJWK(publicKey) };
}

export async function signJwt(key: TestKey, payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', ...header }).sign(key.privateKey);
}

// ---------------------------------------------------------------- SD-JWT

const HASH: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

export const sdDigest = (disclosure: string, alg = 'sha-256'): string => b64u(createHash(HASH[alg]!).update(disclosure, 'ascii').digest());

let saltCounter = 0;
export function disclosure(...parts: [string, unknown] | [unknown]): string {
  saltCounter += 1;
  return b64u(JSON.stringify([`salt-${saltCounter}`, ...parts]));
}

export interface SdJwtParts {
  issuerJwt: string;
  disclosures: string[];
  kbJwt?: string;
  /** `<jwt>~<d1>~…~[<kb>]` */
  sdJwt: string;
}

/**
 * An SD-JWT VC: `given_name`/`family_name` selectively disclosable, `address.locality` nested,
 * `nationalities` with one disclosed and one undisclosed array element.
 */
export async function buildSdJwt(options: { issuer: TestKey; holder?: TestKey; sdAlg?: string; vct?: string; kb?: boolean; extraPayload?: Record<string, unknown> }): Promise<SdJwtParts> {
  const alg = options.sdAlg ?? 'sha-256';
  const given = disclosure('given_name', 'Erika');
  const family = disclosure('family_name', 'Mustermann');
  const locality = disclosure('locality', 'Berlin');
  const nationalityDe = disclosure('DE');
  const nationalityFr = disclosure('FR');
  const payload: Record<string, unknown> = {
    iss: 'https://issuer.example',
    iat: 1_700_000_000,
    vct: options.vct ?? 'urn:eudi:pid:1',
    _sd: [sdDigest(given, alg), sdDigest(family, alg)],
    address: { country: 'DE', _sd: [sdDigest(locality, alg)] },
    nationalities: [{ '...': sdDigest(nationalityDe, alg) }, { '...': sdDigest(nationalityFr, alg) }],
    ...(options.holder ? { cnf: { jwk: options.holder.publicJwk } } : {}),
    ...(options.sdAlg ? { _sd_alg: options.sdAlg } : {}),
    ...options.extraPayload,
  };
  const issuerJwt = await signJwt(options.issuer, payload, { typ: 'dc+sd-jwt' });
  // nationalityFr stays undisclosed.
  const disclosures = [given, family, locality, nationalityDe];
  const presented = `${issuerJwt}~${disclosures.join('~')}~`;
  if (!options.kb || !options.holder) return { issuerJwt, disclosures, sdJwt: presented };
  const kbJwt = await signJwt(
    options.holder,
    { nonce: 'n-1', aud: 'x509_hash:abc', iat: 1_700_000_100, sd_hash: sdDigest(presented, alg) },
    { typ: 'kb+jwt' },
  );
  return { issuerJwt, disclosures, kbJwt, sdJwt: `${presented}${kbJwt}` };
}

// ---------------------------------------------------------------- mdoc

export const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });
const embed = (value: unknown): Tag => new Tag(cbor.encode(value), 24);

function coseSign1(payload: Uint8Array, privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'], unprotected = new Map()): unknown[] {
  const protectedHeader = cbor.encode(new Map([[1, -7]]));
  const toBeSigned = cbor.encode(['Signature1', protectedHeader, new Uint8Array(0), payload]);
  const signature = sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return [protectedHeader, unprotected, payload, new Uint8Array(signature)];
}

export interface MdocElement {
  namespace: string;
  identifier: string;
  value: unknown;
}

export interface MdocDocumentSpec {
  docType: string;
  elements: MdocElement[];
  /** default: deviceSignature */
  deviceAuth?: 'deviceSignature' | 'deviceMac' | 'none';
}

/** base64url DeviceResponse with a real issuerAuth (ES256 over the MSO and its value digests); deviceAuth holds a placeholder (the format policy does not verify it). */
export function buildDeviceResponse(documents: MdocDocumentSpec[], options: { status?: number } = {}): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const docs = documents.map((spec) => {
    const nameSpaces = new Map<string, Tag[]>();
    const valueDigests = new Map<string, Map<number, Uint8Array>>();
    spec.elements.forEach((element, digestID) => {
      const item = embed(new Map<string, unknown>([
        ['digestID', digestID],
        ['random', new Uint8Array(16).fill(digestID)],
        ['elementIdentifier', element.identifier],
        ['elementValue', element.value],
      ]));
      if (!nameSpaces.has(element.namespace)) nameSpaces.set(element.namespace, []);
      nameSpaces.get(element.namespace)!.push(item);
      if (!valueDigests.has(element.namespace)) valueDigests.set(element.namespace, new Map());
      valueDigests.get(element.namespace)!.set(digestID, new Uint8Array(createHash('sha256').update(cbor.encode(item)).digest()));
    });
    const mso = new Map<string, unknown>([
      ['version', '1.0'],
      ['digestAlgorithm', 'SHA-256'],
      ['valueDigests', valueDigests],
      ['docType', spec.docType],
      ['validityInfo', new Map([['signed', new Tag('2024-01-01T00:00:00Z', 0)], ['validFrom', new Tag('2024-01-01T00:00:00Z', 0)], ['validUntil', new Tag('2034-01-01T00:00:00Z', 0)]])],
    ]);
    const issuerAuth = coseSign1(cbor.encode(embed(mso)), privateKey, new Map([[33, new Uint8Array([0x30, 0x00])]]));
    const document = new Map<string, unknown>([
      ['docType', spec.docType],
      ['issuerSigned', new Map<string, unknown>([['nameSpaces', nameSpaces], ['issuerAuth', issuerAuth]])],
    ]);
    if (spec.deviceAuth !== 'none') {
      const auth = spec.deviceAuth ?? 'deviceSignature';
      document.set('deviceSigned', new Map<string, unknown>([
        ['nameSpaces', embed(new Map())],
        ['deviceAuth', new Map([[auth, [cbor.encode(new Map([[1, -7]])), new Map(), null, new Uint8Array(64)]]])],
      ]));
    }
    return document;
  });
  const response = new Map<string, unknown>([['version', '1.0'], ['documents', docs], ['status', options.status ?? 0]]);
  return b64u(cbor.encode(response));
}

export const encodeCbor = (value: unknown): string => b64u(cbor.encode(value));

/** Run `fn` and return the FormatFailure it throws; the test fails if it throws anything else or nothing. */
export function failure(fn: () => unknown): FormatFailure {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatFailure);
    return error as FormatFailure;
  }
  return expect.unreachable('expected a FormatFailure') as never;
}
