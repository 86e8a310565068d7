import { describe, expect, it } from 'vitest';
import { runTest } from '../../runtime/asserts/run-test.ts';
import { countOf } from '../../runtime/values/count.ts';

describe('runTest', () => {
  it('passes when every check holds', () => {
    expect(runTest(4, [['is_greater_than', 3], ['is_less_than', 5]], 'qty')).toEqual({ ok: true });
    expect(runTest('x', [], 'empty')).toEqual({ ok: true });
  });

  it('reports the first failing check with the test source', () => {
    const r = runTest(3, [['is_not_null', true], ['is_greater_than', 5], ['is_less_than', 1]], 'body.qty');
    expect(r).toEqual({ ok: false, message: 'body.qty: expected 3 to be greater than 5' });
  });

  it('fails on an unknown or inherited operator', () => {
    expect(runTest(1, [['is_bigger', 0]], 't')).toEqual({ ok: false, message: 't: unknown check "is_bigger"' });
    expect(runTest(1, [['constructor', 0]], 't').ok).toBe(false);
    expect(runTest(1, [['__proto__', 0]], 't').message).toBe('t: unknown check "__proto__"');
  });

  it('handles realistic response checks', () => {
    const body = { status: 'paid', total: '19.99', items: [{ sku: 'A-1' }] };
    expect(runTest(body.status, [['is_one_of', ['paid', 'refunded']]], 'status').ok).toBe(true);
    expect(runTest(body.total, [['is_between', { min: 0, max: 20 }]], 'total').ok).toBe(true);
    expect(runTest(countOf(body.items), [['is_greater_than', 0]], 'count(items)').ok).toBe(true);
    expect(runTest(body.items[0]!.sku, [['regex', '^[A-Z]-\\d+$']], 'sku').ok).toBe(true);
  });
});

describe('countOf', () => {
  it.each([
    [[1, 2, 3], 3],
    ['abc', 3],
    ['😀a', 2],
    [{ a: 1, b: 2 }, 2],
    [{}, 0],
    [null, 0],
    [undefined, 0],
    [42, 0],
    [true, 0],
  ])('count(%j) = %d', (v, n) => expect(countOf(v)).toBe(n));
});
