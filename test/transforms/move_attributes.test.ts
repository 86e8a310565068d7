import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/move_attributes.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

describe('move_attributes', () => {
  it('moves between dotted paths, creating intermediate objects', () => {
    const data = frozen({ id: 1, street: 'Main 1', city: 'Oslo', meta: { created: 't0' } });
    expect(run(data, { street: 'address.street', city: 'address.city', 'meta.created': 'created_at' }, scope)).toEqual({
      id: 1, meta: {}, address: { street: 'Main 1', city: 'Oslo' }, created_at: 't0',
    });
  });
  it('absent source is a no-op; null intermediate becomes an object; destination is overwritten', () => {
    expect(run(frozen({ a: 1 }), { nope: 'x.y' }, scope)).toEqual({ a: 1 });
    expect(run(frozen({ a: 1, b: null }), { a: 'b.c' }, scope)).toEqual({ b: { c: 1 } });
    expect(run(frozen({ a: 1, b: 2 }), { a: 'b' }, scope)).toEqual({ b: 1 });
  });
  it('runs moves in order on the previous result', () => {
    expect(run(frozen({ a: 1 }), { a: 'b', b: 'c' }, scope)).toEqual({ c: 1 });
  });
  it('applies to each array element', () => {
    expect(run(frozen([{ n: 1 }, { m: 2 }]), { n: 'x.n' }, scope)).toEqual([{ x: { n: 1 } }, { m: 2 }]);
  });
  it('hostile keys are moved as data, never onto a prototype', () => {
    const out = run(hostile(), JSON.parse('{"__proto__":"safe","id":"constructor.id"}'), scope) as any;
    expect(JSON.stringify(out)).toBe('{"constructor":{"prototype":{"polluted":true},"id":1},"safe":{"polluted":true}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(clean()).toBe(true);
    const out2 = run(frozen({ p: 1 }), { p: '__proto__.polluted' }, scope) as any;
    expect(JSON.stringify(out2)).toBe('{"__proto__":{"polluted":1}}');
    expect(clean()).toBe(true);
  });
  it('fails cleanly when a non-object is in the way, or on bad input', () => {
    expect(() => run(frozen({ a: 1, b: 'str' }), { a: 'b.c' }, scope)).toThrow(/move_attributes: cannot set "b.c": b is a string/);
    expect(() => run([], ['a'], scope)).toThrow(TransformError);
    expect(() => run(5, { a: 'b' }, scope)).toThrow(TransformError);
  });
});
