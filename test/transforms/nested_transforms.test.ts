import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/nested_transforms.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { run as keep } from '../../runtime/transforms/keep_attributes.ts';
import { run as numerics } from '../../runtime/transforms/numerics.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, scope } from './helpers.ts';

const order = () => frozen({ id: 'o1', lines: [{ sku: 'A', qty: '2', cost: 1 }, { sku: 'B', qty: '1', cost: 2 }], meta: { total: '3' } });

describe('nested_transforms', () => {
  it('declares its config as chains', () => expect(transformSpecs.nested_transforms).toEqual({ self: 'chains' }));
  it('runs each chain on the value at its key and replaces it', () => {
    const chains = [
      ['lines', (d: unknown, s: any) => keep(numerics(d, ['qty'], s), ['sku', 'qty'], s)],
      ['meta', (d: unknown, s: any) => numerics(d, ['total'], s)],
    ];
    expect(run(order(), chains, scope)).toEqual({ id: 'o1', lines: [{ sku: 'A', qty: 2 }, { sku: 'B', qty: 1 }], meta: { total: 3 } });
  });
  it('dotted keys, arrays of records, absent keys skipped, scope passed through', () => {
    let seen: unknown;
    const chains = [['meta.total', (d: unknown, s: unknown) => { seen = s; return Number(d) * 2; }], ['nope', () => 'x']];
    expect(run(frozen([order(), { id: 'o2' }]), chains, scope)).toEqual([
      { ...order(), meta: { total: 6 } }, { id: 'o2' },
    ]);
    expect(seen).toBe(scope);
  });
  it('a chain returning undefined stores null', () => {
    expect(run(frozen({ a: 1 }), [['a', () => undefined]], scope)).toEqual({ a: null });
  });
  it('hostile keys are data', () => {
    const data = frozen(JSON.parse('{"__proto__":{"x":1}}'));
    const out = run(data, [['__proto__', () => ({ polluted: true })]], scope) as any;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(clean()).toBe(true);
  });
  it('a failing chain names its key; bad input fails cleanly', () => {
    const bad = [['lines', (d: unknown, s: any) => keep(d, 'sku', s)]];
    expect(() => run(order(), bad, scope)).toThrow(/^nested_transforms "lines": keep_attributes: expected a list/);
    expect(() => run(order(), [['id', () => { throw new TypeError('x is undefined'); }]], scope)).toThrow(TransformError);
    expect(() => run('s', [], scope)).toThrow(TransformError);
    expect(() => run({}, { lines: [] }, scope)).toThrow(/nested_transforms: expected a map/);
  });
});
