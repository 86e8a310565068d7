import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/extract_array.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, scope } from './helpers.ts';

const resp = () => frozen({
  data: {
    orders: [
      { id: 1, customer: { email: 'a@x' }, tags: ['new', 'vip'] },
      { id: 2, customer: { email: 'b@x' }, tags: ['new'] },
      { id: 3, customer: { email: 'a@x' } },
    ],
  },
});
const from = (d: any) => d?.data?.orders;

describe('extract_array', () => {
  it('declares `from` as a path', () => expect(transformSpecs.extract_array).toEqual({ fields: { from: 'path' } }));
  it('one path gives an array of values (null when absent)', () => {
    expect(run(resp(), { from, paths: ['customer.email'] }, scope)).toEqual(['a@x', 'b@x', 'a@x']);
    expect(run(resp(), { from, paths: ['tags'] }, scope)).toEqual([['new', 'vip'], ['new'], null]);
  });
  it('several paths give objects keyed by the last segment', () => {
    expect(run(resp(), { from, paths: ['id', 'customer.email'] }, scope)).toEqual([
      { id: 1, email: 'a@x' }, { id: 2, email: 'b@x' }, { id: 3, email: 'a@x' },
    ]);
  });
  it('flatten then dedupe (first wins, key order ignored)', () => {
    expect(run(resp(), { from, paths: ['tags'], flatten: true, dedupe: true }, scope)).toEqual(['new', 'vip', null]);
    expect(run(frozen([{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }]), { dedupe: true }, scope)).toEqual([{ a: 1, b: 2 }, { a: 1 }]);
  });
  it('without from uses the data; absent from gives []', () => {
    expect(run(frozen([[1, 2], 3, [4, [5]]]), { flatten: true }, scope)).toEqual([1, 2, 3, 4, [5]]);
    expect(run(frozen({}), { from, paths: ['id'] }, scope)).toEqual([]);
  });
  it('hostile path names are plain keys', () => {
    const rows = frozen(JSON.parse('[{"__proto__":{"x":1},"constructor":2}]'));
    const out = run(rows, { paths: ['__proto__', 'constructor'] }, scope) as any[];
    expect(JSON.stringify(out)).toBe('[{"__proto__":{"x":1},"constructor":2}]');
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
    expect(run(frozen([{}]), { paths: ['constructor'] }, scope)).toEqual([null]);
    expect(clean()).toBe(true);
  });
  it('does not mutate the input', () => {
    const d = resp();
    const before = JSON.stringify(d);
    run(d, { from, paths: ['tags'], flatten: true, dedupe: true }, scope);
    expect(JSON.stringify(d)).toBe(before);
  });
  it('fails cleanly', () => {
    expect(() => run(frozen({ data: { orders: 'x' } }), { from }, scope)).toThrow(/extract_array: expected `from` to be an array, got a string/);
    expect(() => run({ a: 1 }, {}, scope)).toThrow(/expected the data to be an array/);
    expect(() => run([], { paths: ['a.id', 'b.id'] }, scope)).toThrow(/same name/);
    expect(() => run([], { flatten: 'yes' }, scope)).toThrow(TransformError);
    expect(() => run([], 'items', scope)).toThrow(TransformError);
    expect(() => run([], { from: 'items' }, scope)).toThrow(TransformError);
  });
});
