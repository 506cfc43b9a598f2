/**
 * Which instance an API key belongs to, decided in constant time. The presented key is compared
 * with every configured key, UTF-16 code unit by code unit, over one fixed width (the longest
 * configured key), with the length difference folded into the same accumulator and no exit before
 * the end: the time depends only on the number of keys and the longest one, not on which key
 * matched, how much of one matched, or how long the presented key is. Positions past a key's end
 * read as 0, and a key that is a prefix of another differs in length. In JS rather than
 * `timingSafeEqual`, which needs each presented key written into a zeroed buffer first: on GET
 * status that copy and the buffer calls around it cost more than the rest of the lookup.
 */
export class ApiKeyTable<T> {
  private readonly owners: T[] = [];
  private readonly keys: string[] = [];
  private readonly width: number;

  constructor(entries: Iterable<readonly [owner: T, keys: readonly string[]]>) {
    for (const [owner, keys] of entries) {
      for (const key of keys) {
        this.owners.push(owner);
        this.keys.push(key);
      }
    }
    this.width = Math.max(0, ...this.keys.map((key) => key.length));
  }

  /** The owner of `presented`, comparing it with every configured key (no early exit). */
  ownerOf(presented: string): T | undefined {
    const length = presented.length;
    let found: T | undefined;
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      let difference = length ^ key.length;
      // charCodeAt past the end is NaN, which `^` reads as 0.
      for (let at = 0; at < this.width; at++) difference |= presented.charCodeAt(at) ^ key.charCodeAt(at);
      if (difference === 0 && found === undefined) found = this.owners[i];
    }
    return found;
  }
}
