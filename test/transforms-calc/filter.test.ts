import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/filter.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { at, sel, conditions, frozen, scope } from './helpers.ts';

const page = () => frozen({
  page: 1,
  orders: [
    { id: 1, status: 'paid', total: '120.50', customer: { country: 'DE' } },
    { id: 2, status: 'pending', total: 80, customer: { country: 'FR' } },
    { id: 3, status: 'paid', total: 15, customer: { country: 'DE' } },
    { id: 4, status: 'paid', total: 300, customer: null },
  ],
});

describe('filter', () => {
  it('declares how the compiler lowers its fields', () => {
    expect(transformSpecs.filter).toEqual({ fields: { target: 'places', conditions: 'tests' } });
  });

  it('keeps elements for which every condition holds, keeping the rest of the data', () => {
    const data = page();
    const out = run(data, {
      target: sel('orders'),
      conditions: conditions({ status: [['is_equal_to', 'paid']], total: [['is_greater_than', 100]], 'customer.country': [['is_one_of', ['DE', 'AT']]] }),
    }, scope) as any;
    expect(out).toEqual({ page: 1, orders: [data.orders[0]] });
    expect(out.orders[0]).toBe(data.orders[0]); // elements are kept, not copied
    expect(data.orders).toHaveLength(4);
  });

  it('filters the data itself when there is no target', () => {
    const list = page().orders;
    const out = run(list, { conditions: conditions({ status: [['is_not_equal_to', 'paid']] }) }, scope);
    expect(out).toEqual([list[1]]);
  });

  it('a condition with several checks needs all of them', () => {
    const out = run(page().orders, { conditions: conditions({ total: [['is_greater_than_or_equal_to', 15], ['is_less_than', 100]] }) }, scope) as any[];
    expect(out.map((o) => o.id)).toEqual([2, 3]);
  });

  it('no conditions keep everything; nothing matching gives an empty array', () => {
    expect(run([1, 2], { conditions: [] }, scope)).toEqual([1, 2]);
    expect(run(page().orders, { conditions: conditions({ status: [['is_equal_to', 'void']] }) }, scope)).toEqual([]);
  });

  it('leaves a missing array alone and rejects a non-array', () => {
    const data = { orders: null };
    expect(run(data, { target: sel('orders'), conditions: [] }, scope)).toBe(data);
    expect(() => run({ orders: 'x' }, { target: sel('orders'), conditions: [] }, scope)).toThrow(TransformError);
    expect(() => run({ a: 1 }, { conditions: [] }, scope)).toThrow(/the data is an object, not an array/);
  });

  it('replaces an array nested deeper, inside arrays too', () => {
    const data = frozen({ shops: [{ name: 's', stock: [{ n: 1 }, { n: 5 }] }] });
    const out = run(data, { target: sel('shops.0.stock'), conditions: conditions({ n: [['is_greater_than', 2]] }) }, scope);
    expect(out).toEqual({ shops: [{ name: 's', stock: [{ n: 5 }] }] });
  });
});
