import { describe, expect, it } from 'vitest';
import { asserts } from '../../runtime/asserts/index.ts';
import { cachedRegex as compiled, regexCacheSize as cacheSize } from '../../runtime/values/regex.ts';
import type { LinearRegex } from '../../runtime/values/regex.ts';

const why = (op: string, a: unknown, e: unknown) => asserts[op]!.explain(a, e);

describe('failure messages', () => {
  it('say what was expected of which value', () => {
    expect(why('is_greater_than', 3, 5)).toBe('expected 3 to be greater than 5');
    expect(why('is_less_than_or_equal_to', '9', 5)).toBe('expected "9" to be less than or equal to 5');
    expect(why('is_greater_than', 'abc', 5)).toBe('expected "abc" to be a number greater than 5');
    expect(why('is_greater_than', 3, 'x')).toBe('greater than needs a number, got "x"');
    expect(why('is_equal_to', { a: 1 }, { a: 2 })).toBe('expected {"a":1} to equal {"a":2}');
    expect(why('is_not_equal_to', 1, 1)).toBe('expected 1 not to equal 1');
    expect(why('is_not_null', undefined, true)).toBe('expected undefined to be not null');
    expect(why('is_not_null', 'x', false)).toBe('expected "x" to be null');
    expect(why('is_empty', [1], true)).toBe('expected [1] to be empty');
    expect(why('is_between', 7, { min: 1, max: 5 })).toBe('expected 7 to be between 1 and 5');
    expect(why('is_between', 7, { min: 1 })).toMatch(/needs \{min, max\}/);
    expect(why('regex', 'abc', '^\\d+$')).toBe('expected "abc" to match "^\\\\d+$"');
    expect(why('contains', { a: 1 }, 'b')).toBe('expected {"a":1} to contain the key "b"');
    expect(why('contains', [1], 2)).toBe('expected [1] to contain 2');
    expect(why('is_one_of', 'c', ['a', 'b'])).toBe('expected "c" to be one of ["a","b"]');
    expect(why('is_one_of', 'c', 'a')).toBe('is_one_of needs a list, got "a"');
    expect(why('is_type', [], 'object')).toBe('expected [] to be of type object, but it is array');
    expect(why('is_type', 1, 'int')).toMatch(/^is_type must be one of string, number/);
  });

  it('reports an invalid regex instead of throwing', () => {
    expect(why('regex', 'x', '(')).toMatch(/^invalid regex "\(": missing closing \)/);
  });

  it('cuts long values', () => {
    const msg = why('is_equal_to', 'x'.repeat(500), 'y');
    expect(msg.length).toBeLessThan(140);
    expect(msg).toContain('…');
  });
});

describe('regex cache', () => {
  it('compiles a pattern once and stays bounded', () => {
    expect(compiled('^a+$')).toBe(compiled('^a+$'));
    for (let i = 0; i < 1000; i++) compiled(`^p${i}$`);
    expect(cacheSize()).toBeLessThanOrEqual(256);
    expect((compiled('^p999$') as LinearRegex).test('p999')).toBe(true);
  });
});
