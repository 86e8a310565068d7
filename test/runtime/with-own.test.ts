// withOwn and stringMap(into) (runtime/values): the spread forms they replace, key for key —
// including a "__proto__" name, which stays an own data property and never sets a prototype.
import { expect, it } from 'vitest';
import { withOwn } from '../../runtime/values/build.ts';
import { stringMap } from '../../runtime/values/string-map.ts';

it('withOwn is { ...o, [key]: value }, leaves o alone and keeps __proto__ as data', () => {
  const o = { a: 1, b: 2 };
  expect(withOwn(o, 'c', 3)).toEqual({ a: 1, b: 2, c: 3 });
  expect(withOwn(o, 'a', 9)).toEqual({ ...o, a: 9 });
  expect(Object.keys(withOwn(o, 'a', 9))).toEqual(['a', 'b']);
  expect(o).toEqual({ a: 1, b: 2 });
  const p = withOwn(o, '__proto__', { polluted: true });
  expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  expect(Object.hasOwn(p, '__proto__')).toBe(true);
  expect((p as Record<string, unknown>).polluted).toBeUndefined();
  const q = JSON.parse('{"__proto__": {"x": 1}, "k": 1}') as object;
  const r = withOwn(q, 'k', 2);
  expect(Object.hasOwn(r, '__proto__')).toBe(true);
  expect(JSON.stringify(r)).toBe('{"__proto__":{"x":1},"k":2}');
});

it('stringMap(v, out) adds v over out (route params over query params), names as data', () => {
  const query = stringMap(JSON.parse('{"id": "q", "page": ["2", "3"], "__proto__": "x"}'));
  const both = stringMap({ id: 'route' }, query);
  expect(both).toBe(query);
  expect(Object.entries(both)).toEqual([['id', 'route'], ['page', '2'], ['__proto__', 'x']]);
  expect(Object.getPrototypeOf(both)).toBe(Object.prototype);
  const hostile = stringMap(JSON.parse('{"__proto__": "p"}'), stringMap({ a: '1' }));
  expect(Object.hasOwn(hostile, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
});
