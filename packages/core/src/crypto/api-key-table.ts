/**
 * Which instance an API key belongs to, decided in constant time. The presented key is compared
 * with every configured key, UTF-16 code unit by code unit, over one fixed width (the longest
 * configured key), with the length difference folded into the same accumulator and no exit before
 * the end: the time depends only on the number of keys and the longest one, not on which key
 * matched, how much of one matched, how long the presented key is, or how long each configured key
 * is (each is held as code units padded with zeros to the width, so no read runs past its end).
 * Positions past the presented key's end read as 0, and a key that is a prefix of another differs
 * in length. In JS rather than
 * `timingSafeEqual`, which needs each presented key written into a zeroed buffer first: on GET
 * status that copy and the buffer calls around it cost more than the rest of the lookup.
 */
export class ApiKeyTable<T> {
  private readonly owners: T[] = [];
  /** Each configured key's code units, zero-padded to `width`, and its length. */
  private readonly keys: { units: Uint16Array; length: number }[] = [];
  private readonly width: number;

  constructor(entries: Iterable<readonly [owner: T, keys: readonly string[]]>) {
    const all: [T, string][] = [];
    for (const [owner, keys] of entries) for (const key of keys) all.push([owner, key]);
    this.width = Math.max(0, ...all.map(([, key]) => key.length));
    for (const [owner, key] of all) {
      const units = new Uint16Array(this.width);
      for (let at = 0; at < key.length; at++) units[at] = key.charCodeAt(at);
      this.owners.push(owner);
      this.keys.push({ units, length: key.length });
    }
  }

  /** The owner of `presented`, comparing it with every configured key (no early exit). */
  ownerOf(presented: string): T | undefined {
    const length = presented.length;
    let found: T | undefined;
    for (let i = 0; i < this.keys.length; i++) {
      const { units, length: keyLength } = this.keys[i]!;
      let difference = length ^ keyLength;
      // charCodeAt past the presented key's end is NaN, which `^` reads as 0.
      for (let at = 0; at < this.width; at++) difference |= presented.charCodeAt(at) ^ units[at]!;
      if (difference === 0 && found === undefined) found = this.owners[i];
    }
    return found;
  }
}
