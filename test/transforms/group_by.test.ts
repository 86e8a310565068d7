import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/group_by.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, scope } from './helpers.ts';

const tickets = () => frozen([
  { id: 1, status: 'open', team: { name: 'core' } },
  { id: 2, status: 'closed', team: { name: 'web' } },
  { id: 3, status: 'open', team: { name: 'web' } },
  { id: 4, team: { name: 'core' } },
  { id: 5, status: null },
]);

describe('group_by', () => {
  it('groups by one field into arrays, in first-appearance order', () => {
    const t = tickets();
    const out = run(t, ['status'], scope) as Record<string, unknown[]>;
    expect(Object.keys(out)).toEqual(['open', 'closed', 'null']);
    expect(out.open).toEqual([t[0], t[2]]);
    expect(out.null.map((x: any) => x.id)).toEqual([4, 5]);
  });
  it('several (dotted) fields join with "|"', () => {
    const out = run(tickets(), ['status', 'team.name'], scope) as Record<string, any[]>;
    expect(Object.keys(out)).toEqual(['open|core', 'closed|web', 'open|web', 'null|core', 'null|null']);
  });
  it('numbers, booleans and objects become text keys', () => {
    const out = run(frozen([{ k: 1 }, { k: true }, { k: { a: 1 } }, { k: '1' }]), ['k'], scope) as any;
    expect(Object.keys(out)).toEqual(['1', 'true', '{"a":1}']);
    expect(out['1']).toHaveLength(2);
  });
  it('hostile group keys are own data', () => {
    const out = run(frozen([{ k: '__proto__' }, { k: 'constructor' }]), ['k'], scope) as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":[{"k":"__proto__"}],"constructor":[{"k":"constructor"}]}');
    expect(clean()).toBe(true);
  });
  it('empty array gives {}', () => expect(run([], ['k'], scope)).toEqual({}));
  it('fails cleanly', () => {
    expect(() => run({ a: 1 }, ['a'], scope)).toThrow(/group_by: expected an array, got an object/);
    expect(() => run([], [], scope)).toThrow(TransformError);
    expect(() => run([], 'status', scope)).toThrow(TransformError);
  });
});
