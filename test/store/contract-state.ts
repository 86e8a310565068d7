// The store contract, part 2: key/value state and only_new sets, with injected clocks.
import { expect, it } from 'vitest';
import type { Store } from '../../runtime/store-types.ts';

const NS = 'cfg';
const ids = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `id-${String(from + i).padStart(5, '0')}`);

export function stateContract(nodes: () => [Store, Store]): void {
  it('get, set (any JSON, key order kept), delete; namespaces are separate', async () => {
    const [s] = nodes();
    expect(await s.stateGet(NS, ['a', 'b'], 0)).toEqual({});
    await s.stateSet(NS, 'a', { z: 1, a: [true, null, 'x'] }, undefined, 0);
    await s.stateSet(NS, 'b', 'text', undefined, 0);
    await s.stateSet('other', 'a', 42, undefined, 0);
    const got = await s.stateGet(NS, ['a', 'b', 'c'], 0);
    expect(got).toEqual({ a: { z: 1, a: [true, null, 'x'] }, b: 'text' });
    expect(Object.keys(got.a as object)).toEqual(['z', 'a']);
    expect(await s.stateGet('other', ['a'], 0)).toEqual({ a: 42 });
    expect(await s.stateDelete(NS, 'a')).toBe(true);
    expect(await s.stateDelete(NS, 'a')).toBe(false);
    expect(await s.stateGet(NS, ['a'], 0)).toEqual({});
  });

  it('ttl: a value expires at now + ttl; set without ttl keeps it', async () => {
    const [s] = nodes();
    await s.stateSet(NS, 'k', 1, 1000, 5000);
    expect(await s.stateGet(NS, ['k'], 5999)).toEqual({ k: 1 });
    expect(await s.stateGet(NS, ['k'], 6000)).toEqual({});
    await s.stateSet(NS, 'k', 2, undefined, 7000);
    expect(await s.stateGet(NS, ['k'], 1e12)).toEqual({ k: 2 });
  });

  it('advance stores only greater values: numbers, text, null, mixed, expired', async () => {
    const [s] = nodes();
    expect(await s.stateAdvance(NS, 'n', 10, undefined, 0)).toEqual({ advanced: true, value: 10 });
    expect(await s.stateAdvance(NS, 'n', 9, undefined, 0)).toEqual({ advanced: false, value: 10 });
    expect(await s.stateAdvance(NS, 'n', 10, undefined, 0)).toEqual({ advanced: false, value: 10 });
    expect(await s.stateAdvance(NS, 'n', 10.5, undefined, 0)).toEqual({ advanced: true, value: 10.5 });
    expect(await s.stateAdvance(NS, 'n', null, undefined, 0)).toEqual({ advanced: false, value: 10.5 });
    expect(await s.stateAdvance(NS, 'n', '99', undefined, 0)).toEqual({ advanced: false, value: 10.5 });
    // Text compares by code point: ISO timestamps and zero-padded ids order correctly.
    expect(await s.stateAdvance(NS, 't', '2024-01-02T00:00:00Z', undefined, 0)).toEqual({ advanced: true, value: '2024-01-02T00:00:00Z' });
    expect(await s.stateAdvance(NS, 't', '2024-01-01T23:59:59Z', undefined, 0)).toMatchObject({ advanced: false });
    expect(await s.stateAdvance(NS, 't', 'Z', undefined, 0)).toMatchObject({ advanced: true });
    expect(await s.stateAdvance(NS, 't', 'a', undefined, 0)).toMatchObject({ advanced: true }); // 'a' > 'Z' in code points
    expect(await s.stateAdvance(NS, 'absent', null, undefined, 0)).toEqual({ advanced: false, value: null });
    // An expired value no longer holds the cursor back.
    await s.stateAdvance(NS, 'e', 100, 1000, 0);
    expect(await s.stateAdvance(NS, 'e', 1, 1000, 500)).toEqual({ advanced: false, value: 100 });
    expect(await s.stateAdvance(NS, 'e', 1, undefined, 1000)).toEqual({ advanced: true, value: 1 });
    expect(await s.stateGet(NS, ['e'], 1e12)).toEqual({ e: 1 });
  });

  it('increment: from 0, by, ttl window from creation, refuses non-numbers', async () => {
    const [s] = nodes();
    expect(await s.stateIncrement(NS, 'c', 1, undefined, 0)).toBe(1);
    expect(await s.stateIncrement(NS, 'c', 2.5, undefined, 0)).toBe(3.5);
    expect(await s.stateIncrement(NS, 'c', -4, undefined, 0)).toBe(-0.5);
    expect(await s.stateIncrement(NS, 'w', 1, 1000, 0)).toBe(1);
    expect(await s.stateIncrement(NS, 'w', 1, 1000, 900)).toBe(2); // does not extend the window
    expect(await s.stateGet(NS, ['w'], 1000)).toEqual({});
    expect(await s.stateIncrement(NS, 'w', 1, 1000, 1000)).toBe(1);
    await s.stateSet(NS, 's', 'x', undefined, 0);
    await expect(s.stateIncrement(NS, 's', 1, undefined, 0)).rejects.toThrow(/not a number/);
    expect(await s.stateGet(NS, ['s'], 0)).toEqual({ s: 'x' });
  });

  it('increment is atomic: 50 concurrent increments from two nodes', async () => {
    const [a, b] = nodes();
    const got = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).stateIncrement(NS, 'hits', 1, undefined, 0)));
    expect(got.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await a.stateGet(NS, ['hits'], 0)).toEqual({ hits: 50 });
  });

  it('markSeen reports unseen ids once; sets are per (ns, key); ttl lets ids return', async () => {
    const [s] = nodes();
    expect([...await s.markSeen(NS, 'k', ['1', '2', '2'], undefined, 5000, 0)].sort()).toEqual(['1', '2']);
    expect([...await s.markSeen(NS, 'k', ['2', '3'], undefined, 5000, 1)]).toEqual(['3']);
    expect([...await s.markSeen(NS, 'other', ['1'], undefined, 5000, 1)]).toEqual(['1']);
    expect([...await s.markSeen('ns2', 'k', ['1'], undefined, 5000, 1)]).toEqual(['1']);
    expect([...await s.markSeen(NS, 'k', [], undefined, 5000, 1)]).toEqual([]);
    expect([...await s.markSeen(NS, 't', ['a'], 1000, 5000, 0)]).toEqual(['a']);
    expect([...await s.markSeen(NS, 't', ['a', 'b'], 1000, 5000, 999)]).toEqual(['b']);
    expect([...await s.markSeen(NS, 't', ['a', 'b'], 1000, 5000, 1000)]).toEqual(['a']); // a expired, b has until 1999
  });

  it('markSeen is atomic: overlapping pages from two nodes report each id once', async () => {
    const [a, b] = nodes();
    // 20 pages of 100 ids, each overlapping its neighbours by half, in both orders.
    const pages = Array.from({ length: 20 }, (_, i) => (i % 3 ? ids(i * 50, i * 50 + 100) : ids(i * 50, i * 50 + 100).reverse()));
    const results = await Promise.all(pages.map((p, i) => (i % 2 ? a : b).markSeen(NS, 'race', p, undefined, 5000, 0)));
    const all = results.flatMap((r) => [...r]);
    expect(all.length).toBe(1050);
    expect(new Set(all).size).toBe(1050);
  });

  it('markSeen without ttl keeps the newest `cap` ids (the 5000 cap)', async () => {
    const [s] = nodes();
    expect((await s.markSeen(NS, 'cap', ids(0, 5000), undefined, 5000, 1000)).size).toBe(5000);
    expect((await s.markSeen(NS, 'cap', ids(5000, 5010), undefined, 5000, 2000)).size).toBe(10);
    // Evicted: the 10 oldest (same time: lowest ids). Kept: everything else.
    expect([...await s.markSeen(NS, 'cap', ['id-00009', 'id-00010', 'id-05009', 'id-04999'], undefined, 5000, 3000)]).toEqual(['id-00009']);
    // A small cap shows the order: seen time first, then id.
    await s.markSeen(NS, 'small', ['b', 'a'], undefined, 3, 1);
    await s.markSeen(NS, 'small', ['c'], undefined, 3, 0);
    await s.markSeen(NS, 'small', ['d'], undefined, 3, 2); // drops c (oldest time)
    expect([...await s.markSeen(NS, 'small', ['a', 'b', 'c', 'd'], undefined, 100, 3)]).toEqual(['c']);
  });
}
