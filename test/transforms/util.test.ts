import { describe, expect, it } from 'vitest';
import { deletePath, getPath, setPath } from '../../runtime/transforms/util/path.ts';
import { eachRecord } from '../../runtime/transforms/util/each.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen } from './helpers.ts';

describe('util/path', () => {
  const data = frozen({ a: { b: [{ c: 1 }, { c: 2 }] }, n: null });
  it('gets own properties and array indexes only', () => {
    expect(getPath(data, 'a.b.1.c', 't')).toBe(2);
    expect(getPath(data, 'a.b.2.c', 't')).toBeUndefined();
    expect(getPath(data, 'a.b.length', 't')).toBeUndefined();
    expect(getPath(data, 'constructor', 't')).toBeUndefined();
    expect(getPath(data, 'a.toString', 't')).toBeUndefined();
    expect(getPath(data, 'n', 't')).toBeNull();
  });
  it('sets copy-on-write, sharing untouched branches', () => {
    const out = setPath(data, ['a', 'b', '0', 'c'], 9, 't') as any;
    expect(out.a.b[0].c).toBe(9);
    expect(out.a.b[1]).toBe(data.a.b[1]);
    expect(() => setPath(data, ['a', 'b', '5', 'c'], 1, 't')).toThrow(TransformError);
    expect(() => setPath(data, ['a', 'b', 'x'], 1, 't')).toThrow(/a.b is an array without index x/);
  });
  it('deletes copy-on-write and returns the same reference when absent', () => {
    expect(deletePath(data, ['a', 'b', '0', 'c'])).toEqual({ a: { b: [{}, { c: 2 }] }, n: null });
    expect(deletePath(data, ['x', 'y'])).toBe(data);
  });
  it('rejects empty segments', () => expect(() => getPath(data, 'a..b', 't')).toThrow(/t: invalid path/));
  it('never pollutes prototypes', () => {
    setPath({}, ['__proto__', 'polluted'], 1, 't');
    setPath({}, ['constructor', 'prototype', 'polluted'], 1, 't');
    expect(clean()).toBe(true);
  });
});

describe('util/each', () => {
  it('maps object elements, passes others, fails on scalars', () => {
    expect(eachRecord([{ a: 1 }, 2], 't', () => 'x')).toEqual(['x', 2]);
    expect(() => eachRecord(undefined, 't', () => 1)).toThrow(/t: expected an object or an array of objects, got nothing/);
  });
});
