import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/extract_with_jq.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { frozen, scope } from './helpers.ts';

describe('extract_with_jq', () => {
  it('declares its config as jq', () => expect(transformSpecs.extract_with_jq).toEqual({ self: 'jq' }));
  it('returns the program result as is', () => {
    const data = frozen({ items: [{ id: 1, price: 2 }, { id: 2, price: 3 }] });
    expect(run(data, (d: any) => d.items.map((i: any) => ({ id: i.id })), scope)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(run(data, (d: any) => d.items.length, scope)).toBe(2);
    expect(run(data, () => null, scope)).toBeNull();
  });
  it('a jq runtime error is a TransformError naming the transform', () => {
    const jq = () => { throw new Error('Cannot index number with "id"'); };
    expect(() => run(5, jq, scope)).toThrow(TransformError);
    expect(() => run(5, jq, scope)).toThrow(/^extract_with_jq: Cannot index number/);
  });
  it('fails cleanly without a compiled program', () => {
    expect(() => run({}, '.items', scope)).toThrow(/extract_with_jq: expected a compiled expression/);
  });
});
