/** Test-only: hostile CBOR (shareable/shared-reference tags) assembled with cbor-x's Tag. */
import { Tag } from 'cbor-x';
import { cbor } from './test-fixtures.js';

/**
 * A base64url DeviceResponse whose namespace array is `[28(24(item)), 29(0), 29(0), …]`: one large
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
  const sharedRef = new Tag(0, 29);
  const items = [new Tag(new Tag(item, 24), 28), ...Array.from({ length: options.references }, () => sharedRef)];
  const issuerAuth = [new Uint8Array([0xa1, 0x01, 0x26]), new Map(), new Uint8Array(1), new Uint8Array(64)];
  const document = new Map<string, unknown>([
    ['docType', 'org.iso.18013.5.1.mDL'],
    ['issuerSigned', new Map<string, unknown>([['nameSpaces', new Map([['org.iso.18013.5.1', items]])], ['issuerAuth', issuerAuth]])],
  ]);
  return Buffer.from(cbor.encode(new Map<string, unknown>([['version', '1.0'], ['documents', [document]], ['status', 0]]))).toString('base64url');
}
