import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/add_attribute.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, hostile, scope } from './helpers.ts';

describe('add_attribute', () => {
  it('adds to an object, overwriting existing values', () => {
    expect(run(frozen({ id: 1, source: 'old' }), { source: 'crm', request_id: 'u-1' }, scope)).toEqual({
      id: 1, source: 'crm', request_id: 'u-1',
    });
  });
  it('adds the same value to every object element of an array', () => {
    expect(run(frozen([{ id: 1 }, { id: 2 }, null]), { batch: 'b-9' }, scope)).toEqual([
      { id: 1, batch: 'b-9' }, { id: 2, batch: 'b-9' }, null,
    ]);
  });
  it('dotted names create or extend nested objects', () => {
    expect(run(frozen({ meta: { page: 1 } }), { 'meta.source': 'api', 'audit.by.user': 'ada' }, scope)).toEqual({
      meta: { page: 1, source: 'api' }, audit: { by: { user: 'ada' } },
    });
  });
  it('hostile names become own properties', () => {
    const args = JSON.parse('{"__proto__":{"polluted":true},"constructor.prototype.polluted":true}');
    const out = run(hostile(), args, scope) as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(clean()).toBe(true);
  });
  it('fails cleanly', () => {
    expect(() => run('s', { a: 1 }, scope)).toThrow(TransformError);
    expect(() => run({}, ['a'], scope)).toThrow(/add_attribute: expected an object/);
    expect(() => run(frozen({ id: 5 }), { 'id.x': 1 }, scope)).toThrow(/cannot set "id.x"/);
  });
});
