import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/extract_with_json_path.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { frozen, scope } from './helpers.ts';

const data = () => frozen({ items: [{ id: 1, sku: 'A' }, { id: 2 }] });

describe('extract_with_json_path', () => {
  it('declares its config as a jsonpath', () => expect(transformSpecs.extract_with_json_path).toEqual({ self: 'jsonpath' }));
  it('returns all matches as an array', () => {
    expect(run(data(), (d: any) => d.items.map((i: any) => i.id), scope)).toEqual([1, 2]);
  });
  it('a single match is still an array; none is []', () => {
    expect(run(data(), (d: any) => [d.items[0].sku], scope)).toEqual(['A']);
    expect(run(data(), () => [], scope)).toEqual([]);
  });
  it('does not copy or change the matched values', () => {
    const d = data();
    expect((run(d, (x: any) => [x.items[0]], scope) as unknown[])[0]).toBe(d.items[0]);
  });
  it('fails cleanly', () => {
    expect(() => run({}, '$.items', scope)).toThrow(TransformError);
    expect(() => run({}, () => { throw new Error('bad path'); }, scope)).toThrow(/extract_with_json_path: bad path/);
  });
});
