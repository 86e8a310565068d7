import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/keep_attributes.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

const order = () => frozen({ id: 'o1', total: 9.5, customer: { id: 'c1', name: 'Ada', email: 'a@x' }, internal: true });

describe('keep_attributes', () => {
  it('keeps only the listed names, in the listed order', () => {
    const out = run(order(), ['total', 'id'], scope);
    expect(out).toEqual({ total: 9.5, id: 'o1' });
    expect(Object.keys(out as object)).toEqual(['total', 'id']);
  });
  it('dotted names keep just the nested value', () => {
    expect(run(order(), ['id', 'customer.name'], scope)).toEqual({ id: 'o1', customer: { name: 'Ada' } });
    expect(run(order(), ['customer.name', 'customer'], scope)).toEqual({ customer: order().customer });
  });
  it('omits absent names (never invents nulls) and keeps nulls that exist', () => {
    expect(run(frozen({ a: null }), ['a', 'b', 'c.d'], scope)).toEqual({ a: null });
  });
  it('applies to each element of an array', () => {
    expect(run(frozen([order(), { id: 'o2' }, 3]), ['id'], scope)).toEqual([{ id: 'o1' }, { id: 'o2' }, 3]);
  });
  it('keeps hostile keys as own data only', () => {
    const out = run(hostile(), ['__proto__', 'constructor.prototype'], scope) as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    expect(run(frozen({ a: 1 }), ['constructor', 'toString'], scope)).toEqual({});
    expect(clean()).toBe(true);
  });
  it('fails cleanly', () => {
    expect(() => run(true, ['a'], scope)).toThrow(TransformError);
    expect(() => run({}, [1], scope)).toThrow(/keep_attributes: expected a list/);
  });
});
