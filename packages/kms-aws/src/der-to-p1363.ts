/**
 * An ECDSA signature in DER (`ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`, RFC 3279
 * section 2.2.3, what AWS KMS answers) as the fixed-width `r || s` JOSE needs (IEEE P1363,
 * RFC 7518 section 3.4): each integer left-padded to `size` bytes (32 for P-256).
 *
 * Strict DER only: short-form lengths (a P-256 signature is at most 72 bytes), positive minimal
 * integers, nothing after the sequence. Anything else throws: a signature that is not exactly
 * this shape is not passed on to a wallet.
 */
export function derToP1363(der: Uint8Array, size: number): Uint8Array {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2 || der[1]! > 0x7f) throw new TypeError('not a DER ECDSA signature (SEQUENCE of two INTEGERs)');
  const out = new Uint8Array(2 * size);
  let at = 2;
  for (const half of [0, 1]) {
    if (der[at] !== 0x02) throw new TypeError('not a DER ECDSA signature (expected an INTEGER)');
    const length = der[at + 1]!;
    const start = at + 2;
    if (length === 0 || length > 0x7f || start + length > der.length) throw new TypeError('not a DER ECDSA signature (bad INTEGER length)');
    let value = der.subarray(start, start + length);
    if (value[0]! & 0x80) throw new TypeError('not a DER ECDSA signature (negative INTEGER)');
    if (length === 1 && value[0] === 0) throw new TypeError('not a DER ECDSA signature (an INTEGER is zero)');
    if (value[0] === 0 && !(value[1]! & 0x80)) throw new TypeError('not a DER ECDSA signature (INTEGER not minimally encoded)');
    // The one leading zero DER puts before an integer whose top bit is set.
    if (value[0] === 0) value = value.subarray(1);
    if (value.length > size) throw new TypeError(`not a DER ECDSA signature for a ${size * 8}-bit curve (INTEGER too long)`);
    out.set(value, half * size + size - value.length);
    at = start + length;
  }
  if (at !== der.length) throw new TypeError('not a DER ECDSA signature (bytes after the second INTEGER)');
  return out;
}
