import { Tag } from 'cbor-x';
import { bytesToBase64Url } from '../../crypto/base64url.js';
import { CborBudget } from './cbor-budget.js';
import { decodeWalletCbor } from './wallet-cbor.js';

const MAX_DEPTH = 64;

/**
 * CBOR value → JSON value, as OpenID4VP 6.3 compares mdoc claims: byte strings → base64url,
 * tdate (tag 0, decoded to Date) / epoch (tag 1) → ISO string, full-date (tag 1004) → its
 * string, embedded CBOR (tag 24) → the decoded value, Map → object with string keys,
 * bigint → number when safe (else decimal string), undefined / non-finite numbers → null.
 *
 * Every node, and every nested tag-24 decode, is charged to `budget`: pass the response's
 * budget so that a DAG (a value reached twice) or many large values cannot multiply the work.
 */
export function cborToJson(value: unknown, budget: CborBudget = new CborBudget()): unknown {
  return convert(value, 0, budget);
}

function convert(value: unknown, depth: number, budget: CborBudget): unknown {
  if (depth > MAX_DEPTH) throw new TypeError('CBOR nesting too deep');
  budget.spend(1);
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return bytesToBase64Url(value);
  if (ArrayBuffer.isView(value)) return bytesToBase64Url(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof Tag) {
    if (value.tag === 24 && value.value instanceof Uint8Array) return convert(decodeWalletCbor(value.value, budget), depth + 1, budget);
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
