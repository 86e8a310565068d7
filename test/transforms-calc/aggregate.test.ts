import { describe, expect, it } from 'vitest';
import { run, type AggregateArgs } from '../../runtime/transforms/aggregate.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { at, frozen, scope } from './helpers.ts';

const sales = () => frozen([
  { region: 'eu', channel: 'web', amount: 10, price: { net: '8.40' } },
  { region: 'us', channel: 'web', amount: '25', price: { net: 21 } },
  { region: 'eu', channel: 'shop', amount: 20, price: { net: 16.8 } },
  { region: 'us', channel: 'web', amount: 'n/a', price: null },
  { channel: 'web', amount: 5 },
]);
const agg = (data: unknown, args: AggregateArgs) => run(data, args, scope) as any;

describe('aggregate', () => {
  it('declares how the compiler lowers its fields', () => {
    expect(transformSpecs.aggregate).toEqual({ fields: { over: 'path' } });
  });

  it('counts by default', () => {
    expect(agg(sales(), {})).toEqual({ count: 5 });
  });

  it('sums, averages and finds extremes; non-numeric values are ignored', () => {
    expect(agg(sales(), { sum: ['amount', 'price.net'], avg: ['amount'], min: ['amount'], max: ['price.net'] })).toEqual({
      sum: { amount: 60, 'price.net': 46.2 },
      avg: { amount: 15 },
      min: { amount: 5 },
      max: { 'price.net': 21 },
    });
  });

  it('hides binary floating-point noise in fractional sums and averages', () => {
    const rows = [{ v: 0.1 }, { v: 0.2 }, { v: '0.7' }];
    expect(agg(rows, { sum: ['v'], avg: ['v'] })).toEqual({ sum: { v: 1 }, avg: { v: 0.333333333333333 } });
    expect(agg([{ v: 0.1 }, { v: 0.2 }], { sum: ['v'] }).sum.v).toBe(0.3);
    expect(agg([{ v: 2 ** 53 - 1 }, { v: 0 }], { sum: ['v'] }).sum.v).toBe(2 ** 53 - 1);
  });

  it('adds count when asked alongside other operations', () => {
    expect(agg(sales(), { count: true, sum: ['amount'] })).toEqual({ count: 5, sum: { amount: 60 } });
  });

  it('an empty array: count 0, sum 0, avg/min/max null', () => {
    expect(agg([], { count: true, sum: ['a'], avg: ['a'], min: ['a'], max: ['a'] })).toEqual({
      count: 0, sum: { a: 0 }, avg: { a: null }, min: { a: null }, max: { a: null },
    });
    expect(agg({ items: null }, { over: at('items') })).toEqual({ count: 0 });
  });

  it('group_by: overall summary plus one entry per group in first-seen order', () => {
    expect(agg(sales(), { group_by: ['region'], sum: ['amount'], count: true })).toEqual({
      count: 5,
      sum: { amount: 60 },
      groups: [
        { key: { region: 'eu' }, count: 2, sum: { amount: 30 } },
        { key: { region: 'us' }, count: 2, sum: { amount: 25 } },
        { key: { region: null }, count: 1, sum: { amount: 5 } },
      ],
    });
  });

  it('group_by several fields, counting by default', () => {
    const out = agg(sales(), { group_by: ['region', 'channel'] });
    expect(out.groups).toEqual([
      { key: { region: 'eu', channel: 'web' }, count: 1 },
      { key: { region: 'us', channel: 'web' }, count: 2 },
      { key: { region: 'eu', channel: 'shop' }, count: 1 },
      { key: { region: null, channel: 'web' }, count: 1 },
    ]);
  });

  it('groups 1 and "1" apart', () => {
    expect(agg([{ k: 1 }, { k: '1' }, { k: 1 }], { group_by: ['k'] }).groups).toEqual([
      { key: { k: 1 }, count: 2 }, { key: { k: '1' }, count: 1 },
    ]);
  });

  it('over + key writes the summary into the data', () => {
    const data = frozen({ report: 'q1', rows: sales() });
    const out = agg(data, { over: at('rows'), key: 'summary', sum: ['amount'] });
    expect(out).toEqual({ report: 'q1', rows: data.rows, summary: { sum: { amount: 60 } } });
  });

  it('rejects bad input cleanly', () => {
    expect(() => agg({ a: 1 }, {})).toThrow(TransformError);
    expect(() => agg([], { key: 'x' })).toThrow(/key needs the data to be an object/);
    expect(() => agg([], { sum: 'amount' as any })).toThrow(/sum must be a list/);
  });
});
