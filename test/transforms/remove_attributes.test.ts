import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/remove_attributes.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

const user = () => frozen({ id: 1, user: { name: 'Ada', password: 'pw', roles: ['a'] }, token: 't' });

describe('remove_attributes', () => {
  it('removes top-level and dotted nested names', () => {
    expect(run(user(), ['token', 'user.password'], scope)).toEqual({ id: 1, user: { name: 'Ada', roles: ['a'] } });
  });
  it('applies to each element of an array', () => {
    expect(run(frozen([user(), { id: 2 }]), ['user.password', 'token'], scope)).toEqual([
      { id: 1, user: { name: 'Ada', roles: ['a'] } },
      { id: 2 },
    ]);
  });
  it('ignores missing names and paths through non-objects', () => {
    const u = user();
    expect(run(u, ['nope', 'id.deeper', 'user.nope.x'], scope)).toBe(u);
  });
  it('removes an array element by index', () => {
    expect(run(frozen({ tags: ['a', 'b', 'c'] }), ['tags.1'], scope)).toEqual({ tags: ['a', 'c'] });
  });
  it('removes hostile own keys without touching prototypes', () => {
    const out = run(hostile(), ['__proto__', 'constructor'], scope) as any;
    expect(out).toEqual({ id: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(run(frozen({ a: 1 }), ['__proto__.polluted', 'constructor.prototype'], scope)).toEqual({ a: 1 });
    expect(clean()).toBe(true);
  });
  it('fails cleanly on wrong input', () => {
    expect(() => run('x', ['a'], scope)).toThrow(TransformError);
    expect(() => run({}, 'a', scope)).toThrow(/remove_attributes: expected a list/);
    expect(() => run({}, ['a..b'], scope)).toThrow(/invalid path/);
  });
});
