/** Test-only: hand-assembled hostile CBOR that cbor-x's Encoder would not produce on its own. */
import { cbor } from './test-fixtures.js';

const PLACEHOLDER = 'ITEMS-PLACEHOLDER';

/** CBOR head (major type + argument), definite length. */
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/**
 * A base64url DeviceResponse whose namespace array is `[28(item), 29(0), 29(0), …]`: one large
 * tag-24 IssuerSignedItem declared shareable, then `references` back-references of 3 bytes each.
 */
export function sharedItemDeviceResponse(options: { itemBytes: number; references: number }): string {
  const item = cbor.encode(
    new Map<string, unknown>([
      ['digestID', 0],
      ['random', new Uint8Array(16)],
      ['elementIdentifier', 'portrait'],
      ['elementValue', new Uint8Array(options.itemBytes)],
    ]),
  );
  const items = Buffer.concat([
    head(4, options.references + 1),
    Buffer.from('d81c', 'hex'), // shareable
    Buffer.from('d818', 'hex'), // embedded CBOR
    head(2, item.length),
    item,
    Buffer.from('d81d00'.repeat(options.references), 'hex'), // sharedref 0
  ]);
  const issuerAuth = [new Uint8Array([0xa1, 0x01, 0x26]), new Map(), new Uint8Array(1), new Uint8Array(64)];
  const document = new Map<string, unknown>([
    ['docType', 'org.iso.18013.5.1.mDL'],
    ['issuerSigned', new Map<string, unknown>([['nameSpaces', new Map([['org.iso.18013.5.1', PLACEHOLDER]])], ['issuerAuth', issuerAuth]])],
  ]);
  const encoded = Buffer.from(cbor.encode(new Map<string, unknown>([['version', '1.0'], ['documents', [document]], ['status', 0]])));
  const marker = Buffer.concat([head(3, PLACEHOLDER.length), Buffer.from(PLACEHOLDER)]);
  const at = encoded.indexOf(marker);
  return Buffer.concat([encoded.subarray(0, at), items, encoded.subarray(at + marker.length)]).toString('base64url');
}
