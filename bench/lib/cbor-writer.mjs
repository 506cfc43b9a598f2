// Minimal CBOR writer: enough to assemble DeviceResponses byte by byte (hostile ones included)
// and the COSE structures a direct verifier hashes and signs over. Definite lengths below 2^32.
export const head = (major, n) => {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
};
export const text = (s) => Buffer.concat([head(3, Buffer.byteLength(s)), Buffer.from(s)]);
export const bytes = (b) => Buffer.concat([head(2, b.length), b]);
export const tag = (t, inner) => Buffer.concat([head(6, t), inner]);
export const array = (items) => Buffer.concat([head(4, items.length), ...items]);
export const map = (entries) => Buffer.concat([head(5, entries.length), ...entries.flat()]);
