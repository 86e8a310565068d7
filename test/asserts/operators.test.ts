import { describe, expect, it } from 'vitest';
import { asserts } from '../../runtime/asserts/index.ts';

// [op, actual, expected, passes]
type Row = [string, unknown, unknown, boolean];
const rows: Row[] = [
  ['is_equal_to', { a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
  ['is_equal_to', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
  ['is_equal_to', 200, '200', false],
  ['is_equal_to', [1, 2], [2, 1], false],
  ['is_equal_to', undefined, null, true],
  ['is_equal_to', { a: 1, x: undefined }, { a: 1 }, true],
  ['is_equal_to', 0, false, false],
  ['is_not_equal_to', 'a', 'b', true],
  ['is_not_equal_to', { a: 1 }, { a: 1 }, false],
  ['is_null', null, true, true],
  ['is_null', undefined, null, true],
  ['is_null', 0, true, false],
  ['is_null', 0, false, true],
  ['is_not_null', undefined, true, false],
  ['is_not_null', '', true, true],
  ['is_not_null', null, false, true],
  ['is_not_null', 'x', 'false', false],
  ['is_empty', '', true, true],
  ['is_empty', [], true, true],
  ['is_empty', {}, true, true],
  ['is_empty', null, true, true],
  ['is_empty', ' ', true, false],
  ['is_empty', 0, true, false],
  ['is_not_empty', [0], true, true],
  ['is_not_empty', {}, true, false],
  ['is_not_empty', '', false, true],
  ['is_greater_than', 6, 5, true],
  ['is_greater_than', 5, 5, false],
  ['is_greater_than', '12.5', 12, true],
  ['is_greater_than', 13, ' 12 ', true],
  ['is_greater_than', 'abc', 1, false],
  ['is_greater_than', true, 0, false],
  ['is_greater_than', null, -1, false],
  ['is_greater_than', 5, 'x', false],
  ['is_greater_than', '0x10', 1, false],
  ['is_greater_than_or_equal_to', 5, 5, true],
  ['is_greater_than_or_equal_to', 4.9, 5, false],
  ['is_less_than', -1, 0, true],
  ['is_less_than', 0, 0, false],
  ['is_less_than_or_equal_to', '1e2', 100, true],
  ['is_less_than_or_equal_to', 101, 100, false],
  ['is_between', 5, { min: 1, max: 5 }, true],
  ['is_between', 1, { min: 1, max: 5 }, true],
  ['is_between', '3', { min: '1', max: 5 }, true],
  ['is_between', 6, { min: 1, max: 5 }, false],
  ['is_between', 3, { min: 5, max: 1 }, false],
  ['is_between', 3, [1, 5], false],
  ['is_between', 'x', { min: 1, max: 5 }, false],
  ['regex', 'order-123', '^order-\\d+$', true],
  ['regex', 'ORDER-123', '^order-\\d+$', false],
  ['regex', 12345, '^\\d{5}$', true],
  ['regex', true, '^true$', true],
  ['regex', { a: 1 }, '"a":1', true],
  ['regex', null, '.*', false],
  ['regex', '/api/v1/x', '^/api/', true],
  ['regex', 'x', '(', false],
  ['contains', 'hello world', 'o w', true],
  ['contains', 'abc123', 123, true],
  ['contains', 'abc', 'd', false],
  ['contains', [1, { id: 2 }], { id: 2 }, true],
  ['contains', [1, 2], '1', false],
  ['contains', { id: 1, name: 'x' }, 'name', true],
  ['contains', { id: 1 }, 'x', false],
  ['contains', { id: 1 }, 'toString', false],
  ['contains', 42, 4, false],
  ['contains', null, 'x', false],
  ['is_one_of', 'b', ['a', 'b'], true],
  ['is_one_of', 2, ['2'], false],
  ['is_one_of', { a: 1 }, [{ a: 1 }], true],
  ['is_one_of', 'a', 'abc', false],
  ['is_type', 'x', 'string', true],
  ['is_type', 1.5, 'number', true],
  ['is_type', false, 'boolean', true],
  ['is_type', {}, 'object', true],
  ['is_type', [], 'object', false],
  ['is_type', [], 'array', true],
  ['is_type', null, 'null', true],
  ['is_type', undefined, 'null', true],
  ['is_type', '1', 'number', false],
  ['is_type', 'x', 'text', false],
];

describe('assert operators', () => {
  it.each(rows)('%s(%j, %j) → %s', (op, actual, expected, passes) => {
    expect(asserts[op]!.check(actual, expected)).toBe(passes);
    if (!passes) expect(asserts[op]!.explain(actual, expected)).toMatch(/\w/);
  });

  it('covers the whole vocabulary and nothing inherited', () => {
    // Every operator with rows here is registered (the full list is checked against the schema in test/transforms/index.test.ts).
    for (const op of new Set(rows.map((r) => r[0]))) expect(Object.keys(asserts)).toContain(op);
    expect(asserts.constructor).toBeUndefined();
    expect(asserts.toString).toBeUndefined();
    expect(Object.isFrozen(asserts)).toBe(true);
  });
});
