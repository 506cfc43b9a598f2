import { Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { encodeCbor } from '../../verifier/mdoc/mdoc-cbor.js';
import { mdocIssuerCertificateChains } from './mdoc-x5chain.js';

const cert = new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]);
const response = (issuerAuth: unknown) =>
  Buffer.from(encodeCbor(new Map<string, unknown>([['version', '1.0'], ['documents', [new Map([['issuerSigned', new Map<string, unknown>([['issuerAuth', issuerAuth]])]])]], ['status', 0]]))).toString('base64url');

describe('mdocIssuerCertificateChains', () => {
  it('reads x5chain from the protected header, then the unprotected one', () => {
    const protectedHeader = encodeCbor(new Map<number, unknown>([[1, -7], [33, cert]]));
    expect(mdocIssuerCertificateChains(response(new Tag([protectedHeader, new Map(), null, new Uint8Array(64)], 18)))).toEqual([[cert]]);
    expect(mdocIssuerCertificateChains(response([encodeCbor(new Map([[1, -7]])), new Map([[33, [cert, cert]]]), null, new Uint8Array(64)]))).toEqual([[cert, cert]]);
  });

  it('reads nothing from a response that shares one document by reference (tags 28/29)', () => {
    const document = encodeCbor(new Map([['issuerSigned', new Map<string, unknown>([['issuerAuth', [encodeCbor(new Map<number, unknown>([[1, -7], [33, cert]])), new Map(), null, new Uint8Array(64)]]])]]));
    const raw = Buffer.from(encodeCbor(new Map<string, unknown>([['version', '1.0'], ['documents', 'X'], ['status', 0]])));
    // documents = [28(document), 29(0)]: plain cbor-x would yield the same chain twice.
    const at = raw.indexOf(Buffer.from([0x61, 0x58]));
    const hostile = Buffer.concat([raw.subarray(0, at), Buffer.from('82d81c', 'hex'), document, Buffer.from('d81d00', 'hex'), raw.subarray(at + 2)]);
    expect(mdocIssuerCertificateChains(hostile.toString('base64url'))).toEqual([]);
  });
});
