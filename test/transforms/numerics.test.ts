import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/transforms/numerics.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, frozen, scope } from './helpers.ts';

describe('numerics', () => {
  it('converts numeric strings, including dotted fields', () => {
    const data = frozen({ sku: 'A1', price: '12.50', stock: { qty: ' 7 ' }, rate: '-1e-3' });
    expect(run(data, ['price', 'stock.qty', 'rate'], scope)).toEqual({ sku: 'A1', price: 12.5, stock: { qty: 7 }, rate: -0.001 });
  });
  it('applies to each array element', () => {
    expect(run(frozen([{ n: '1' }, { n: '2.0' }, { m: '3' }]), ['n'], scope)).toEqual([{ n: 1 }, { n: 2 }, { m: '3' }]);
  });
  it('leaves non-numeric text, unsafe integers, non-strings and absent fields as they are', () => {
    const data = frozen({ a: 'N/A', b: '', c: '0x1F', d: '1,000', e: '12345678901234567890', f: 5, g: null, h: true, i: 'Infinity', j: '-12345678901234567890', k: ' +9007199254740993 ' });
    const out = run(data, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'zz'], scope);
    expect(out).toBe(data);
  });
  it('hostile field names are data', () => {
    const data = frozen(JSON.parse('{"__proto__":{"n":"1"},"constructor":"2"}'));
    const out = run(data, ['__proto__.n', 'constructor'], scope) as any;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"n":1},"constructor":2}');
    expect(run(frozen({}), ['constructor', 'toString'], scope)).toEqual({});
    expect(clean()).toBe(true);
  });
  it('fails cleanly', () => {
    expect(() => run('12', ['a'], scope)).toThrow(TransformError);
    expect(() => run('12', ['a'], scope)).toThrow('numerics: expected an object or an array of objects, got a string');
    expect(() => run({}, 'price', scope)).toThrow(/numerics: expected a list/);
  });
});
