/**
 * The verdict-cache key (`chainCacheKey`) of chains given as x5c text, remembered by their exact
 * strings: a chain seen again (the validator's trusted-issuer check and the verifier's key
 * resolution read the same header, and an issuer signs many credentials with one chain) skips
 * decoding the base64 and hashing the DER. The key is a function of the strings and of the anchor
 * set's content; a frozen anchor array cannot change, so the memo is kept per frozen array (by
 * identity) and not at all for any other. Only chains whose full check said valid are remembered,
 * so what the memo holds is bounded by the trusted chains in use, not by what requests send.
 */
export class ChainKeyMemo {
  readonly #byAnchors = new WeakMap<readonly string[], Map<string, { chain: readonly string[]; key: string }>>();

  constructor(readonly maxPerAnchorSet = 64) {
    if (!Number.isInteger(maxPerAnchorSet) || maxPerAnchorSet < 1) throw new RangeError('ChainKeyMemo needs maxPerAnchorSet >= 1');
  }

  /** The key remembered for exactly these strings (same count, each equal) under this anchor array. */
  get(chain: readonly string[], anchorsPem: readonly string[]): string | undefined {
    if (chain.length === 0 || !Object.isFrozen(anchorsPem)) return undefined;
    const hit = this.#byAnchors.get(anchorsPem)?.get(chain[0]!);
    if (hit === undefined || hit.chain.length !== chain.length) return undefined;
    for (let i = 0; i < chain.length; i++) if (hit.chain[i] !== chain[i]) return undefined;
    return hit.key;
  }

  set(chain: readonly string[], anchorsPem: readonly string[], key: string): void {
    if (chain.length === 0 || !Object.isFrozen(anchorsPem)) return;
    let entries = this.#byAnchors.get(anchorsPem);
    if (entries === undefined) this.#byAnchors.set(anchorsPem, (entries = new Map()));
    // A copy: the caller's array may change after this call; the strings cannot.
    entries.delete(chain[0]!);
    entries.set(chain[0]!, { chain: [...chain], key });
    while (entries.size > this.maxPerAnchorSet) entries.delete(entries.keys().next().value!);
  }
}
