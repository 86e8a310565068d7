import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/return_row.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { frozen, scope } from './helpers.ts';

const rows = () => frozen([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);

describe('return_row', () => {
  it('returns the row at a 0-based index (same reference, not a copy)', () => {
    const r = rows();
    expect(run(r, 0, scope)).toBe(r[0]);
    expect(run(r, 2, scope)).toEqual({ id: 'c' });
  });
  it('negative counts from the end', () => {
    expect(run(rows(), -1, scope)).toEqual({ id: 'c' });
    expect(run(rows(), -3, scope)).toEqual({ id: 'a' });
  });
  it('out of range (or empty array) gives null', () => {
    expect(run(rows(), 3, scope)).toBeNull();
    expect(run(rows(), -4, scope)).toBeNull();
    expect(run([], 0, scope)).toBeNull();
  });
  it('accepts an interpolated integer string', () => {
    expect(run(rows(), '1', scope)).toEqual({ id: 'b' });
    expect(run(rows(), '-1', scope)).toEqual({ id: 'c' });
  });
  it('fails cleanly on non-arrays and bad indexes', () => {
    expect(() => run({ id: 'a' }, 0, scope)).toThrow(/return_row: expected an array, got an object/);
    expect(() => run(null, 0, scope)).toThrow(TransformError);
    for (const bad of [1.5, 'first', NaN, null, '', [0]]) expect(() => run(rows(), bad, scope)).toThrow(TransformError);
  });
});
