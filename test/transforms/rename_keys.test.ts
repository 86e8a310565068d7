import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/rename_keys.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

describe('rename_keys', () => {
  it('renames root keys only, not nested ones', () => {
    const data = frozen({ data: { data: 1 }, meta: { total: 3 } });
    expect(run(data, { data: 'items' }, scope)).toEqual({ items: { data: 1 }, meta: { total: 3 } });
  });
  it('leaves an array root unchanged', () => {
    const data = frozen([{ a: 1 }]);
    expect(run(data, { a: 'b' }, scope)).toBe(data);
  });
  it('ignores absent keys; keeps the key order', () => {
    expect(Object.keys(run(frozen({ x: 1, y: 2, z: 3 }), { y: 'w', q: 'r' }, scope) as object)).toEqual(['x', 'w', 'z']);
  });
  it('hostile keys stay own data', () => {
    const out = run(hostile(), { id: 'prototype' }, scope) as any;
    expect(Object.keys(out)).toEqual(['prototype', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(clean()).toBe(true);
  });
  it('fails cleanly on a scalar or bad args', () => {
    expect(() => run(42, { a: 'b' }, scope)).toThrow(TransformError);
    expect(() => run({}, 'a', scope)).toThrow(/rename_keys: expected a map/);
  });
});
