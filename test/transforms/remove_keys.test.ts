import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/remove_keys.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

describe('remove_keys', () => {
  it('removes root keys; a dot is part of the name', () => {
    const data = frozen({ items: [1], meta: { page: 1 }, 'meta.page': 'x' });
    expect(run(data, ['meta.page', 'links'], scope)).toEqual({ items: [1], meta: { page: 1 } });
  });
  it('returns the same object when nothing is removed; leaves arrays unchanged', () => {
    const o = frozen({ a: 1 });
    expect(run(o, ['b'], scope)).toBe(o);
    const arr = frozen([{ a: 1 }]);
    expect(run(arr, ['a'], scope)).toBe(arr);
  });
  it('removes hostile own keys safely', () => {
    const out = run(hostile(), ['__proto__'], scope) as any;
    expect(Object.keys(out)).toEqual(['id', 'constructor']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(clean()).toBe(true);
  });
  it('fails cleanly', () => {
    expect(() => run(null, ['a'], scope)).toThrow(TransformError);
    expect(() => run({}, { a: 1 }, scope)).toThrow(/remove_keys: expected a list/);
  });
});
