import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LinkedSet } from './linked-set.js';
import { ReadyAtHeap } from './ready-at-heap.js';

describe('webhook queue structures', () => {
  it('the retry heap pops in readyAt order, also after retain() shed some items', () => {
    const heap = new ReadyAtHeap<{ readyAt: number; id: number }>();
    const items = Array.from({ length: 500 }, (_, id) => ({ readyAt: randomInt(0, 1_000), id }));
    for (const item of items) heap.push(item);
    heap.retain((item) => item.id % 3 !== 0);
    const popped: number[] = [];
    for (let item = heap.pop(); item; item = heap.pop()) popped.push(item.readyAt);
    const expected = items.filter((item) => item.id % 3 !== 0).map((item) => item.readyAt).sort((a, b) => a - b);
    expect(popped).toEqual(expected);
    expect(heap.size).toBe(0);
  });

  it('the linked set keeps insertion order through deletes anywhere, including during iteration', () => {
    const set = new LinkedSet<number>();
    for (let i = 0; i < 10; i++) set.add(i);
    set.add(3); // already there: stays in place
    set.delete(0);
    set.delete(5);
    set.delete(9);
    for (const value of set) if (value % 2 === 0) set.delete(value);
    expect([...set]).toEqual([1, 3, 7]);
    expect(set.first()).toBe(1);
    expect(set.size).toBe(3);
    set.add(0);
    expect([...set]).toEqual([1, 3, 7, 0]);
  });
});
