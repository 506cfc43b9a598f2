const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Decodes Bitcoin base58 (multibase prefix `z` already removed); throws on invalid characters. */
export function base58btcDecode(text: string): Uint8Array {
  if (text.length > 4_096) throw new TypeError('base58 value is too long');
  const bytes: number[] = [];
  for (const char of text) {
    let carry = INDEX.get(char);
    if (carry === undefined) throw new TypeError('Invalid base58 character');
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.push(0);
  }
  return new Uint8Array(bytes.reverse());
}
