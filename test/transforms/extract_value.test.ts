import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/extract_value.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { frozen, scope } from './helpers.ts';

describe('extract_value', () => {
  it('declares its config as a path', () => expect(transformSpecs.extract_value).toEqual({ self: 'path' }));
  it('returns the value the getter finds', () => {
    const data = frozen({ data: { user: { id: 42, tags: ['x'] } } });
    expect(run(data, (d: any) => d?.data?.user?.id, scope)).toBe(42);
    expect(run(data, (d: any) => d?.data?.user?.tags, scope)).toBe(data.data.user.tags);
  });
  it('absent gives null; falsy values are kept', () => {
    expect(run(frozen({}), (d: any) => d?.nope, scope)).toBeNull();
    expect(run(frozen({ n: 0, s: '', f: false }), (d: any) => d.n, scope)).toBe(0);
    expect(run(frozen({ f: false }), (d: any) => d.f, scope)).toBe(false);
  });
  it('works on any data (scalar root)', () => {
    expect(run('text', () => undefined, scope)).toBeNull();
  });
  it('fails cleanly when the getter is missing or throws', () => {
    expect(() => run({}, 'data.user', scope)).toThrow(TransformError);
    expect(() => run({}, () => { throw new TypeError('boom'); }, scope)).toThrow(/extract_value: boom/);
  });
});
