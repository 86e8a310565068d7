// withOwn, stringMap(into) and headerMap (runtime/values): the spread forms they replace, key for key —
// including a "__proto__" name, which stays an own data property and never sets a prototype.
import { expect, it } from 'vitest';
import { withOwn } from '../../runtime/values/build.ts';
import { headerMap, stringMap } from '../../runtime/values/string-map.ts';

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

it('headerMap is stringMap for the headers node gives a request (set-cookie arrays, duplicates, many names)', async () => {
  const { createServer, request } = await import('node:http');
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const server = createServer((req, res) => { seen.push(req.headers); res.end(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const send = (headers: Record<string, string | string[]>) => new Promise<void>((resolve, reject) => {
    const r = request({ port, host: '127.0.0.1', headers }, (res) => { res.resume(); res.on('end', resolve); });
    r.on('error', reject);
    r.end();
  });
  try {
    await send({ 'x-a': '1', 'X-B': 'two', accept: 'application/json', 'user-agent': 'u', cookie: 'c=1' });
    await send({ 'set-cookie': ['a=1', 'b=2'], 'x-dup': ['one', 'two'], host: 'example.test' });
  } finally {
    server.close();
  }
  for (const h of seen) {
    const copy = headerMap(h);
    expect(copy).not.toBe(h);
    expect(Object.entries(copy)).toEqual(Object.entries(stringMap(h)));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  }
  expect(headerMap(seen[1]!)['set-cookie']).toBe('a=1');
  expect(headerMap(seen[1]!)['x-dup']).toBe('one, two');
  // Not from node, but a shape the copy must not trust: an own __proto__ stays data.
  const hostile = headerMap(JSON.parse('{"__proto__": "p", "a": "1"}') as Record<string, string>);
  expect(Object.hasOwn(hostile, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
});
