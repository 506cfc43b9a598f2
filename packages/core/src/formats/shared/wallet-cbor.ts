import { Decoder } from 'cbor-x';
import type { Code } from '../../errors/error-codes.js';
import { CborBudget } from './cbor-budget.js';

/** Thrown for CBOR that is malformed or uses something a wallet has no reason to send. */
export class WalletCborRefused extends Error {
  override readonly name = 'WalletCborRefused';
  readonly code = 'cbor.refused' satisfies Code;
}

const MAX_DEPTH = 64;
/** Bignums (tags 2/3): cbor-x builds them byte by byte, quadratic in length. */
const MAX_BIGNUM_BYTES = 128;
/** Decoding touches every byte of text strings; charge for size as well as item count. */
const BYTES_PER_UNIT = 256;

/**
 * Tags a wallet may use: RFC 8949 standard tags, COSE (16-19, 96-98), embedded CBOR (24),
 * full-date (1004 / days 100), uint8 typed array (64) and the self-describe marker. Everything
 * else is refused before cbor-x runs, notably its non-standard extensions that it resolves by
 * default: value sharing (28/29) which turns a few bytes into many references to one large
 * value, packed values (51, 6 and the 216-255 / 28704+ prefix ranges), records (105,
 * 0xdff9-0xdfff), structured-clone objects (27, 258, 259) and the other typed arrays.
 */
const ALLOWED_TAGS = new Set([0, 1, 2, 3, 4, 5, 16, 17, 18, 19, 21, 22, 23, 24, 32, 33, 34, 36, 37, 64, 96, 97, 98, 100, 1004, 55799]);

/** Maps stay Maps (COSE and the MSO use integer keys); no record extension. */
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

const BREAK = 0xff;

/** Content major types of tags that cbor-x converts eagerly or that we read as bytes/text. */
const TAG_CONTENT: Record<number, number[]> = { 0: [3], 1: [0, 1, 7], 2: [2], 3: [2], 24: [2], 64: [2], 1004: [3] };

class Scanner {
  private pos = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly budget: CborBudget,
  ) {}

  run(): void {
    this.item(0);
    if (this.pos !== this.bytes.length) throw new WalletCborRefused('trailing bytes after the CBOR item');
  }

  private byte(): number {
    if (this.pos >= this.bytes.length) throw new WalletCborRefused('unexpected end of CBOR data');
    return this.bytes[this.pos++]!;
  }

  /** The argument of a head with additional info 24-27 (or the info itself below 24). */
  private argument(info: number): number {
    if (info < 24) return info;
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
    if (size === 0) throw new WalletCborRefused('reserved CBOR additional information');
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + this.byte();
    // Above 2^53 the value is imprecise, which only matters for lengths: those are refused anyway.
    return value;
  }

  private remaining(): number {
    return this.bytes.length - this.pos;
  }

  private item(depth: number): void {
    if (depth > MAX_DEPTH) throw new WalletCborRefused('CBOR nesting too deep');
    this.budget.spend(1);
    const head = this.byte();
    const major = head >> 5;
    const info = head & 0x1f;
    if (info === 31) return this.indefinite(major, depth);
    const arg = this.argument(info);
    switch (major) {
      case 0:
      case 1:
        return;
      case 2:
      case 3:
        // A declared length beyond the input is refused before any allocation.
        if (arg > this.remaining()) throw new WalletCborRefused('CBOR string longer than the input');
        this.pos += arg;
        return;
      case 4:
        if (arg > this.remaining()) throw new WalletCborRefused('CBOR array longer than the input');
        for (let i = 0; i < arg; i++) this.item(depth + 1);
        return;
      case 5:
        if (arg * 2 > this.remaining()) throw new WalletCborRefused('CBOR map longer than the input');
        for (let i = 0; i < arg * 2; i++) this.item(depth + 1);
        return;
      case 6:
        return this.tag(arg, depth);
      default:
        // Simple values other than false/true/null/undefined are cbor-x packed-value references.
        if (info < 20 || info === 24) throw new WalletCborRefused('unsupported CBOR simple value');
        return;
    }
  }

  private indefinite(major: number, depth: number): void {
    // Indefinite strings are not supported by cbor-x; arrays and maps are bounded by the input
    // (every element takes at least one byte), the depth limit and the budget.
    if (major !== 4 && major !== 5) throw new WalletCborRefused('unsupported indefinite-length CBOR item');
    for (let n = 0; ; n++) {
      if (this.pos >= this.bytes.length) throw new WalletCborRefused('unterminated indefinite-length CBOR item');
      if (this.bytes[this.pos] === BREAK) {
        if (major === 5 && n % 2 === 1) throw new WalletCborRefused('CBOR map with a key but no value');
        this.pos++;
        return;
      }
      this.item(depth + 1);
    }
  }

  private tag(tag: number, depth: number): void {
    if (!ALLOWED_TAGS.has(tag)) throw new WalletCborRefused(`unsupported CBOR tag ${tag}`);
    if (this.pos >= this.bytes.length) throw new WalletCborRefused('unexpected end of CBOR data');
    const next = this.bytes[this.pos]!;
    const major = next >> 5;
    const allowed = TAG_CONTENT[tag];
    if (allowed && !allowed.includes(major)) throw new WalletCborRefused(`CBOR tag ${tag} has the wrong content type`);
    if ((next & 0x1f) === 31 && allowed) throw new WalletCborRefused(`CBOR tag ${tag} has the wrong content type`);
    if ((tag === 2 || tag === 3) && this.peekLength() > MAX_BIGNUM_BYTES) throw new WalletCborRefused('CBOR bignum too large');
    this.item(depth + 1);
  }

  private peekLength(): number {
    const start = this.pos;
    const info = this.byte() & 0x1f;
    const length = this.argument(info);
    this.pos = start;
    return length;
  }
}

/**
 * The one decoder for CBOR that comes from a wallet (core format policy and the local
 * verifier). The bytes are first scanned without building anything: well-formed, no trailing
 * bytes, nesting ≤ 64, declared lengths within the input, only standard tags with the right
 * content, and every item charged to `budget`. Only then does cbor-x build the value, so its
 * extensions never see hostile input. Throws WalletCborRefused or CborBudgetExceeded.
 */
export function decodeWalletCbor(bytes: Uint8Array, budget: CborBudget = new CborBudget()): unknown {
  budget.spend(Math.ceil(bytes.length / BYTES_PER_UNIT));
  new Scanner(bytes, budget).run();
  try {
    return decoder.decode(bytes);
  } catch (error) {
    throw new WalletCborRefused(error instanceof Error ? error.message : 'undecodable CBOR');
  }
}
