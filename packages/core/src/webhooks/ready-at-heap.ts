/**
 * A binary min-heap of items by a numeric time (epoch ms): the retry waits of the webhook queue.
 * push and pop cost O(log n), peek O(1), so arming the one timer never scans the queue.
 */
export class ReadyAtHeap<T extends { readyAt: number }> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.readyAt <= item.readyAt) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) this.siftDown(0, last);
    return top;
  }

  /** Keep only the items `keep` accepts (O(n)): how stale entries are shed in bulk. */
  retain(keep: (item: T) => boolean): void {
    const kept = this.items.filter(keep);
    this.items.length = 0;
    this.items.push(...kept);
    for (let i = (kept.length >> 1) - 1; i >= 0; i--) this.siftDown(i, this.items[i]!);
  }

  /** Place `item` at `i` or below, moving smaller children up. */
  private siftDown(start: number, item: T): void {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.readyAt < items[left]!.readyAt ? right : left;
      if (items[child]!.readyAt >= item.readyAt) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = item;
  }

  clear(): void {
    this.items.length = 0;
  }
}
