interface Link<T> {
  value: T;
  prev: Link<T> | undefined;
  next: Link<T> | undefined;
}

/**
 * A set that keeps insertion order with O(1) add, delete and first, whose iteration never walks
 * over deleted entries. A JS Set does not promise that: entries deleted at its front stay as holes
 * that iteration (even `values().next()`) skips one by one until the table is rebuilt, so a queue
 * that takes from the front and adds at the back costs O(size) per step.
 */
export class LinkedSet<T> implements Iterable<T> {
  private readonly links = new Map<T, Link<T>>();
  private head: Link<T> | undefined;
  private tail: Link<T> | undefined;

  get size(): number {
    return this.links.size;
  }

  has(value: T): boolean {
    return this.links.has(value);
  }

  /** Adds at the end (no-op when present). */
  add(value: T): void {
    if (this.links.has(value)) return;
    const link: Link<T> = { value, prev: this.tail, next: undefined };
    if (this.tail) this.tail.next = link;
    else this.head = link;
    this.tail = link;
    this.links.set(value, link);
  }

  delete(value: T): boolean {
    const link = this.links.get(value);
    if (!link) return false;
    this.links.delete(value);
    if (link.prev) link.prev.next = link.next;
    else this.head = link.next;
    if (link.next) link.next.prev = link.prev;
    else this.tail = link.prev;
    return true;
  }

  first(): T | undefined {
    return this.head?.value;
  }

  *[Symbol.iterator](): Iterator<T> {
    // The successor is read before yielding, so the caller may delete the value it was given.
    for (let link = this.head; link; ) {
      const next = link.next;
      yield link.value;
      link = next;
    }
  }
}
