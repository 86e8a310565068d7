import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/rename_attributes.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

describe('rename_attributes', () => {
  it('renames on an object, keeping key positions', () => {
    const out = run(frozen({ id: 7, first_name: 'Ada', email: 'a@x.io' }), { first_name: 'firstName' }, scope);
    expect(out).toEqual({ id: 7, firstName: 'Ada', email: 'a@x.io' });
    expect(Object.keys(out as object)).toEqual(['id', 'firstName', 'email']);
  });
  it('renames each object element of an array; other elements pass through', () => {
    const data = frozen([{ user_id: 1 }, { user_id: 2, x: 1 }, null, 'str']);
    expect(run(data, { user_id: 'userId' }, scope)).toEqual([{ userId: 1 }, { userId: 2, x: 1 }, null, 'str']);
  });
  it('ignores absent names and returns the same record when nothing changes', () => {
    const rec = frozen({ a: 1 });
    expect(run(rec, { missing: 'b' }, scope)).toBe(rec);
  });
  it('applies renames simultaneously (swap) and the renamed value wins a collision', () => {
    expect(run(frozen({ a: 1, b: 2 }), { a: 'b', b: 'a' }, scope)).toEqual({ b: 1, a: 2 });
    expect(run(frozen({ a: 1, b: 2 }), { a: 'b' }, scope)).toEqual({ b: 1 });
  });
  it('handles hostile keys as plain data', () => {
    const out = run(hostile(), { __proto__x: 'y', constructor: 'ctor' } as any, scope) as any;
    expect(Object.hasOwn(out, 'ctor')).toBe(true);
    const out2 = run(frozen({ evil: { polluted: true } }), { evil: '__proto__' }, scope) as any;
    expect(Object.hasOwn(out2, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out2)).toBe(Object.prototype);
    expect(JSON.stringify(out2)).toBe('{"__proto__":{"polluted":true}}');
    expect(clean()).toBe(true);
  });
  it('fails cleanly on wrong data or args', () => {
    expect(() => run('text', { a: 'b' }, scope)).toThrow(TransformError);
    expect(() => run(null, { a: 'b' }, scope)).toThrow(/rename_attributes: expected an object or an array/);
    expect(() => run({}, ['a'], scope)).toThrow(TransformError);
    expect(() => run({}, { a: 5 }, scope)).toThrow(TransformError);
  });
});
