import { Decoder, Tag } from 'cbor-x';
import { bytesToBase64Url } from '../crypto/base64url.js';

/** Maps stay Maps (mdoc and COSE use integer keys); no cbor-x record extension. */
export const mdocCborDecoder = new Decoder({ mapsAsObjects: false, useRecords: false });

const MAX_DEPTH = 64;
/**
 * CBOR shared references (tags 28/29) let a few hundred bytes describe a graph whose tree
 * expansion is exponential; a node budget bounds the work whatever the input.
 */
const MAX_NODES = 100_000;

/**
 * CBOR value → JSON value, as OpenID4VP 6.3 compares mdoc claims: byte strings → base64url,
 * tdate (tag 0, decoded to Date) / epoch (tag 1) → ISO string, full-date (tag 1004) → its
 * string, embedded CBOR (tag 24) → the decoded value, Map → object with string keys,
 * bigint → number when safe (else decimal string), undefined / non-finite numbers → null.
 */
export function cborToJson(value: unknown): unknown {
  const budget = { left: MAX_NODES };
  return convert(value, 0, budget);
}

function convert(value: unknown, depth: number, budget: { left: number }): unknown {
  if (depth > MAX_DEPTH) throw new TypeError('CBOR nesting too deep');
  if (--budget.left < 0) throw new TypeError('CBOR value too large');
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return bytesToBase64Url(value);
  if (ArrayBuffer.isView(value)) return bytesToBase64Url(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof Tag) {
    if (value.tag === 24 && value.value instanceof Uint8Array) return convert(mdocCborDecoder.decode(value.value), depth + 1, budget);
    return convert(value.value, depth + 1, budget);
  }
  if (Array.isArray(value)) return value.map((item) => convert(item, depth + 1, budget));
  if (value instanceof Map) {
    // fromEntries defines own properties: a "__proto__" key cannot alter the prototype.
    return Object.fromEntries([...value.entries()].map(([k, v]) => [String(convert(k, depth + 1, budget)), convert(v, depth + 1, budget)]));
  }
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, depth + 1, budget)]));
  }
  return null;
}
