import { describe, expect, it } from 'vitest';
import { run, type MathArgs } from '../../runtime/transforms/math.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { at, sel, backends, calcs, frozen, scope } from './helpers.ts';

const order = () => frozen({
  id: 'o-1',
  customer: { name: 'Ann', country: 'DE' },
  items: [
    { sku: 'A', price: '19.99', qty: 2 },
    { sku: 'B', price: 5, qty: '3' },
    { sku: 'C', price: 'n/a', qty: 1 },
    'note: gift wrap',
  ],
  totals: { net: 100, vat_rate: 0.19 },
});

describe.each(backends)('math (%s expressions)', (backend) => {
  const math = (data: unknown, expressions: Record<string, string>, rest: Partial<MathArgs> = {}) =>
    run(data, { expressions: calcs(expressions, backend), ...rest }, scope);

  it('declares how the compiler lowers its fields', () => {
    expect(transformSpecs.math).toEqual({ fields: { expressions: 'calcs', target: 'places' } });
  });

  it('computes on each element of a nested array and returns the whole data', () => {
    const data = order();
    const out = math(data, { line: 'target.price * target.qty' }, { target: sel('items'), decimal_places: 2 }) as any;
    expect(out.items.map((i: any) => i.line ?? null)).toEqual([39.98, 15, null, null]);
    expect(out.items[3]).toBe('note: gift wrap');
    expect(out.customer).toEqual(data.customer);
    expect(out.id).toBe('o-1');
    expect(data.items[0]).not.toHaveProperty('line');
  });

  it('computes on a nested object; later expressions see earlier ones', () => {
    const out = math(order(), { vat: 'target.net * target.vat_rate', gross: 'target.net + target.vat' }, { target: sel('totals') }) as any;
    expect(out.totals).toEqual({ net: 100, vat_rate: 0.19, vat: 19, gross: 119 });
  });

  it('works on the root object and overwrites existing fields', () => {
    expect(math({ a: 2, b: 3, c: 'old' }, { c: 'target.a ** target.b' })).toEqual({ a: 2, b: 3, c: 8 });
    expect(math([{ a: 1 }, { a: 2 }], { d: 'target.a * 2' })).toEqual([{ a: 1, d: 2 }, { a: 2, d: 4 }]);
  });

  it.each([
    [2.5, 0, 3], [-2.5, 0, -3], [1.005, 2, 1.01], [1.2345, 3, 1.235], [10, 2, 10], [0.1 + 0.2, 2, 0.3],
  ])('decimal_places rounds %d to %d places → %d', (x, places, want) => {
    expect(math({ x }, { y: 'target.x' }, { decimal_places: places })).toEqual({ x, y: want });
  });

  it('to_string keeps trailing zeros', () => {
    expect(math({ x: 1.5 }, { y: 'target.x' }, { decimal_places: 2, to_string: true })).toEqual({ x: 1.5, y: '1.50' });
    expect(math({ x: 1.5 }, { y: 'target.x' }, { to_string: true })).toEqual({ x: 1.5, y: '1.5' });
    expect(math({ x: 'a' }, { y: 'target.x' }, { to_string: true })).toEqual({ x: 'a', y: 'a' });
    expect(math({ x: 2 }, { y: 'target.x' }, { decimal_places: '1' as any, to_string: true })).toEqual({ x: 2, y: '2.0' });
  });

  it.each([
    ['int', '7 / 2', 3], ['int', '-7 / 2', -3], ['int', '"12.9"', 12], ['int', '"abc"', null],
    ['float', '"12.5"', 12.5], ['float', 'true', null],
    ['string', '7 / 2', '3.5'], ['string', 'target.o', '{"k":1}'],
    ['bool', '1', true], ['bool', '0', false], ['bool', '"false"', false], ['bool', '"yes"', true], ['bool', '""', false],
  ] as const)('eval_type %s of %s → %j', (type, src, want) => {
    expect((math({ o: { k: 1 } }, { r: src }, { eval_type: type }) as any).r).toEqual(want);
  });

  it('eval_type string with decimal_places formats like to_string', () => {
    expect((math({}, { r: '2' }, { eval_type: 'string', decimal_places: 2 }) as any).r).toBe('2.00');
  });

  it('non-numeric operands and division by zero give null, not a crash', () => {
    expect(math({ a: 'x', b: 0 }, { p: 'target.a * 2', q: '1 / target.b', r: 'target.none + 1' }, { decimal_places: 2, eval_type: 'float' }))
      .toEqual({ a: 'x', b: 0, p: null, q: null, r: null });
  });

  it('leaves a missing target alone and rejects a scalar one', () => {
    const data = { items: null };
    expect(math(data, { x: '1' }, { target: sel('items') })).toBe(data);
    expect(math(data, { x: '1' }, { target: sel('nope') })).toBe(data);
    expect(() => math({ items: 5 }, { x: '1' }, { target: sel('items') })).toThrow(TransformError);
  });

  it('validates decimal_places and eval_type', () => {
    expect(() => math({}, { x: '1' }, { decimal_places: -1 })).toThrow(/decimal_places/);
    expect(() => math({}, { x: '1' }, { decimal_places: 1.5 })).toThrow(/decimal_places/);
    expect(() => math({}, { x: '1' }, { eval_type: 'date' as any })).toThrow(/eval_type/);
  });

  it('writes a "__proto__" field as a plain field', () => {
    const out = math({ a: 1 }, JSON.parse('{"__proto__": "target.a + 1"}')) as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe(2);
  });
});
