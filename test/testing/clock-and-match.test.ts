// The virtual clock of a test case and the body matching of its expectations (runtime/testing).
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../runtime/testing/virtual-clock.ts';
import { difference } from '../../runtime/testing/expect.ts';

describe('virtual clock', () => {
  it('moves by a wait at once; waits that overlap end together; it never goes back', async () => {
    const c = new VirtualClock(1_000);
    await c.sleep(3_600_000);
    expect(c.now()).toBe(3_601_000);
    await Promise.all([c.sleep(10), c.sleep(30), c.sleep(20)]);
    expect(c.now()).toBe(3_601_030);
    c.advanceTo(5);
    expect(c.now()).toBe(3_601_030);
    c.advanceTo(4_000_000);
    expect(c.now()).toBe(4_000_000);
    const gone = AbortSignal.abort(new Error('cancelled'));
    await expect(c.sleep(1, gone)).rejects.toThrow('cancelled');
  });
});

describe('body matching', () => {
  it('exact: every key and item, and no other key', () => {
    expect(difference({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, '', false)).toBeUndefined();
    expect(difference({ a: 1 }, { a: 1, b: 2 }, '', false)).toBe('at /b: unexpected key (value 2)');
    expect(difference({ a: [1, 2] }, { a: [1, 3] }, '', false)).toBe('at /a/1: expected 2, got 3');
    expect(difference(1, '1', '', false)).toBe('at /: expected 1, got "1"');
  });

  it('subset: objects by the keys given, arrays item by item with the same length', () => {
    expect(difference({ a: [{}, { b: 2 }] }, { a: [{ x: 1 }, { b: 2, c: 3 }], d: 4 }, '', true)).toBeUndefined();
    expect(difference({ a: [{}] }, { a: [{}, {}] }, '', true)).toBe('at /a: expected 1 items, got 2: [{},{}]');
    expect(difference({ a: { b: 1 } }, { a: {} }, '', true)).toBe('at /a/b: expected 1, got no such key');
    expect(difference({ a: [] }, { a: {} }, '', true)).toBe('at /a: expected [], got {}');
  });
});
