import { describe, expect, it } from 'vitest';
import { all3, both } from './helpers.ts';

const order = {
  price: '12.50', qty: 3, total: 99.99, discount: null, name: 'Widget', sku: 'W-1', active: true,
  'unit price': 2.5, dims: { w: 2, h: 4 }, tags: ['a', 'b'], scores: [3, 9, 4], zero: 0,
};

// [expression, expected result]; each row is checked on both backends.
const corpus: Array<[string, unknown]> = [
  ['target.price * target.qty', 37.5],
  ['round(target.total * 0.92)', 92],
  ['round(target.total * 0.92, 2)', 91.99],
  ['round(2.5)', 3],
  ['round(-2.5)', -3],
  ['round(1.005, 2)', 1.01],
  ['floor(-1.5) + ceil(1.2) + abs(-3)', 3],
  ['sqrt(16) + pow(2, 10) + 2 ** 3', 1036],
  ['min(target.qty, 5, target.price)', 3],
  ['max(target.scores)', 9],
  ['min(target.scores, 1)', 1],
  ['max(target.tags)', null],
  ['target["unit price"] * 2', 5],
  ['target.dims.w * target.dims.h', 8],
  ['target.scores[1]', 9],
  ['target.missing * 2', null],
  ['target.discount + 1', null],
  ['target.qty / target.zero', null],
  ['-target.qty', -3],
  ['-target.zero', 0],
  ['target.qty % 2', 1],
  ['target.price + target.qty', 15.5],
  ['target.name + " " + target.sku', 'Widget W-1'],
  ['target.name + target.sku', 'WidgetW-1'],
  ['string(target.qty) + string(target.qty)', '33'],
  ['target.qty + "1"', '31'],
  ['string(target.discount) + "x"', 'x'],
  ['string(target.dims)', '{"w":2,"h":4}'],
  ['number(target.price) + 0.5', 13],
  ['number("abc")', null],
  ['target.qty > 2 ? "bulk" : "single"', 'bulk'],
  ['target.price == 12.5', true],
  ['target.name === "Widget"', true],
  ['target.name != "Gadget"', true],
  ['target.dims == target.dims', true],
  ['target.name < "Zebra"', true],
  ['target.name < 5', false],
  ['target.active && target.qty >= 3', true],
  ['!target.active || target.qty', 3],
  ['target.discount || 0', 0],
  ['target.discount && target.missing.x', null],
  ['target.dims', { w: 2, h: 4 }],
  ['-2 ** 2', 4],
  ['1 + 2 * 3 - 4 / 2', 5],
  ['(1 + 2) * 3', 9],
  ['true', true],
  ['null', null],
];

describe('math expression corpus', () => {
  it.each(corpus)('%s', (src, want) => {
    for (const f of all3(src)) expect(f(order)).toEqual(want);
  });

  it('never reads inherited properties', () => {
    for (const src of ['target.toString', 'target.valueOf', 'target.hasOwnProperty', 'target.tags.length', 'target.name.length'])
      for (const f of all3(src)) expect(f(order)).toBeNull();
    const json = JSON.parse('{"__proto__x": 1}');
    for (const f of all3('target["__proto__x"]')) expect(f(json)).toBe(1);
    // A record without Object.prototype (a copy of one with an own `__proto__`) reads the same.
    const bare = Object.assign(Object.create(null), { a: 4 }) as object;
    for (const f of all3('target.a * 2 + target.toString')) expect(f(bare)).toBeNull();
    for (const f of all3('target.a * 2')) expect(f(bare)).toBe(8);
  });

  it('does not fail on targets that are not objects', () => {
    for (const t of [null, undefined, 5, 'str', []]) for (const f of both('target.a * 2')) expect(f(t)).toBeNull();
    for (const f of both('target * 2')) expect(f('21')).toBe(42);
  });
});
