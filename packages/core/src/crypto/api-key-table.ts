import { timingSafeEqual } from 'node:crypto';

/** Marks a presented key longer than every configured one: no configured key encodes to it. */
const TOO_LONG = 0xffff_ffff;

/**
 * Which instance an API key belongs to, decided in constant time without hashing. Every key
 * (configured and presented) is laid out in slots of one width: its UTF-8 length (4 bytes), its
 * bytes, zeros. One `timingSafeEqual` per configured key then compares length and content at once,
 * and the time depends only on the number of keys and the longest one: not on which key matched,
 * how much of one matched, or the lengths of the others. A SHA-256 per request did the same at
 * about five times the cost of this whole lookup.
 */
export class ApiKeyTable<T> {
  private readonly owners: T[] = [];
  private readonly slots: Buffer[] = [];
  private readonly width: number;
  /** The presented key's slot, reused and zeroed after every lookup (lookups are synchronous). */
  private readonly scratch: Buffer;

  constructor(entries: Iterable<readonly [owner: T, keys: readonly string[]]>) {
    const all: [T, string][] = [];
    for (const [owner, keys] of entries) for (const key of keys) all.push([owner, key]);
    this.width = 4 + Math.max(0, ...all.map(([, key]) => Buffer.byteLength(key)));
    for (const [owner, key] of all) {
      const slot = Buffer.alloc(this.width);
      this.encode(key, slot);
      this.owners.push(owner);
      this.slots.push(slot);
    }
    this.scratch = Buffer.alloc(this.width);
  }

  /** The owner of `presented`, comparing it with every configured key (no early exit). */
  ownerOf(presented: string): T | undefined {
    const slot = this.scratch;
    try {
      this.encode(presented, slot);
      let found: T | undefined;
      for (let i = 0; i < this.slots.length; i++) {
        const equal = timingSafeEqual(slot, this.slots[i]!);
        if (equal && found === undefined) found = this.owners[i];
      }
      return found;
    } finally {
      slot.fill(0);
    }
  }

  /** `slot` must be all zeros. A key too long for the slot is written truncated all the same (no shortcut to time). */
  private encode(key: string, slot: Buffer): void {
    const length = Buffer.byteLength(key);
    slot.write(key, 4, 'utf8');
    slot.writeUInt32BE(length > this.width - 4 ? TOO_LONG : length, 0);
  }
}
