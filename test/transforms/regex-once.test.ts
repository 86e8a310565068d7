// The regex transforms compile a pattern once (the bounded cache asserts and discover filters use):
// inside a lookup they run for every item, and compiling cost 35–94 µs a pattern against ~2 µs a
// match. A pattern RE2 refuses still fails with the transform's name and the reason.
import { describe, expect, it } from 'vitest';
import { run as extract } from '../../runtime/transforms/extract_with_regex.ts';
import { run as replace } from '../../runtime/transforms/replace_values.ts';
import { regexCacheSize } from '../../runtime/values/regex.ts';
import { scope } from './helpers.ts';

describe('regex transforms', () => {
  it('compile each pattern once, however often they run', () => {
    const before = regexCacheSize();
    for (let i = 0; i < 5; i++) {
      expect(extract({ v: `order-${i}` }, { value: 'v', expr: '^order-(\\d+)$ once-a', keys: ['n'] }, scope)).toEqual({ n: null });
      expect(extract(`order-${i}`, { value: '', expr: '^order-(\\d+)$', keys: ['n'] }, scope)).toEqual({ n: String(i) });
      expect(replace({ a: 'x1', b: 'y' }, { regex: '^x\\d once-b$|^x\\d$', target_value: 'hit' }, scope)).toEqual({ a: 'hit', b: 'y' });
    }
    expect(regexCacheSize() - before).toBeLessThanOrEqual(3);
    expect(regexCacheSize()).toBeGreaterThan(before);
  });

  it('still refuses a pattern RE2 cannot run, each time', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => extract('a', { value: '', expr: '(a)\\1', keys: ['x'] }, scope)).toThrow(/^extract_with_regex: .*backreferences/);
      expect(() => replace({ a: 'a' }, { regex: '(?=a)', target_value: 'z' }, scope)).toThrow(/^replace_values: .*lookaround/);
    }
  });
});
