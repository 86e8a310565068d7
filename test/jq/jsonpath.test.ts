// JSONPath: compiled paths, jsonPathAll and json-p3 itself must agree.
import { describe, expect, it } from 'vitest';
import { compileJsonPath } from '../../compiler/jsonpath/compile.ts';
import * as jp from '../../runtime/jsonpath/ops.ts';
import { jsonPathAll, jsonPathFirst } from '../../runtime/jsonpath/query.ts';
import { env } from '../../runtime/jsonpath/env.ts';

const query = (doc: unknown, path: string) => env.query(path, doc as never).values();

const load = (code: { text: string }) => new Function('jp', `'use strict'; return (${code.text});`)(jp) as (d: unknown) => unknown[];

const DOCS: unknown[] = [
  null, 1, 'str', [], {},
  { a: { b: 1, 'x y': [0, 1] }, items: [{ name: 'n1', price: 2, tags: ['t'] }, { name: null }, { price: 0 }, 5], 'x y': 'space', "a'b": 1, 'a"b': 2, é: 'e' },
  [[1, 2], { a: 1, b: [3] }, 'x', null],
  JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"name": "c"}, "toString": "t", "items": {"k1": {"name": "v1"}, "k2": {"name": "v2"}}}'),
  { store: { book: Array.from({ length: 50 }, (_, i) => ({ title: `t${i}`, price: i % 7, author: i % 3 ? 'x' : null })), bicycle: { price: 399 } } },
];

const SIMPLE = [
  '$', '$.a', '$.a.b', "$['x y']", '$["x y"]', "$['a\\'b']", '$["a\\"b"]', '$.a["x y"][1]', '$.items[0].name', '$.items[-1]',
  '$.items[-5]', '$.items[10]', '$.items[*]', '$.items[*].name', '$.items[*].tags[*]', '$.items.*', '$[*]', '$.*', '$[*][*]',
  '$[0][1]', '$[1].b[0]', '$.é', "$['__proto__']", '$.__proto__.polluted', '$.constructor.name', '$.toString', '$.items.*.name',
  '$.store.book[*].price', '$.store.book[3].title', "$['store']['bicycle']['price']", '$.a.b.c', '$[0]', '$.true',
];
const OTHER = ['$..price', '$.items[?@.price > 1].name', '$.items[0:2]', "$['a','items']", '$.items[*]..name', '$.store.book[?@.author]',
  '$..*', "$['\\u00e9']", '$.items[1:]', '$[ 0 ]'];

describe('JSONPath', () => {
  it('compiles paths to plain code that agrees with json-p3', () => {
    for (const path of [...SIMPLE, ...OTHER]) {
      const c = compileJsonPath(path);
      expect(c, path).not.toBeNull();
      const fn = load(c!.code);
      for (const doc of DOCS) {
        const expected = query(doc as never, path);
        expect(fn(doc), `${path} compiled`).toEqual(expected);
        expect(jsonPathAll(path, doc), `${path} jsonPathAll`).toEqual(expected);
      }
    }
  });

  it('marks singular queries as single', () => {
    expect(compileJsonPath('$.a.b')).toEqual({ code: expect.objectContaining({ text: '((root) => jp.one(jp.prop(jp.prop(root, "a"), "b")))' }), single: true });
    expect(compileJsonPath('$.items[*].name')?.single).toBe(false);
  });

  it('stops `..` at the same depth in both paths', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = [deep];
    expect(() => jsonPathAll('$..*', deep)).toThrow(/recursion limit reached: the document nests deeper than 1000 levels/);
    expect(() => load(compileJsonPath('$..*')!.code)(deep)).toThrow(/recursion limit reached: the document nests deeper than 1000 levels/);
  });

  it('supports dotted paths', () => {
    const doc = { items: [{ name: 'a' }, { name: 'b' }], a: { b: 0, '0': 'zero' }, n: null };
    const cases: [string, unknown[]][] = [
      ['items.0.name', ['a']], ['.items.1.name', ['b']], ['items.-1.name', ['b']], ['a.b', [0]], ['a.0', ['zero']],
      ['items.2.name', []], ['items.x', []], ['n', [null]], ['n.x', []], ['', [doc]], ['missing.deep', []],
      ['__proto__', []], ['constructor', []], ['a.toString', []],
    ];
    for (const [path, expected] of cases) {
      expect(jsonPathAll(path, doc), path).toEqual(expected);
      const c = compileJsonPath(path)!;
      expect(c.single).toBe(true);
      expect(load(c.code)(doc), path).toEqual(expected);
    }
    expect(jsonPathFirst('items.1.name', doc)).toBe('b');
    expect(jsonPathFirst('items.9', doc)).toBeUndefined();
  });

  it('never reads inherited members', () => {
    const plain = { a: 1 };
    for (const path of ['$.__proto__', '$.constructor', '$.toString', "$['hasOwnProperty']", '__proto__', 'constructor.name']) {
      expect(jsonPathAll(path, plain), path).toEqual([]);
      expect(load(compileJsonPath(path)!.code)(plain), path).toEqual([]);
    }
  });

  it('keeps hostile keys as data in generated code', () => {
    for (const key of ["'); process.exit(1)//", '\u2028', '"]; process.exit(1); ["', '${x}']) {
      const path = `$[${JSON.stringify(key)}]`;
      const c = compileJsonPath(path);
      expect(c, path).not.toBeNull();
      expect(c!.code.text.replace(/"(?:[^"\\]|\\.)*"/g, '""')).not.toMatch(/process|\u2028|\$\{/);
      expect(load(c!.code)({ [key]: 7 })).toEqual([7]);
      const dotted = compileJsonPath(`a.${key.replace(/\./g, '')}`)!;
      expect(load(dotted.code)({ a: { [key.replace(/\./g, '')]: 8 } })).toEqual([8]);
    }
  });

  it('rejects invalid JSONPaths with a clear error', () => {
    expect(compileJsonPath('$.[')).toBeNull();
    expect(() => jsonPathAll('$.[', {})).toThrow(/Invalid JSONPath "\$\.\["/);
    expect(() => jsonPathAll('$[01]', {})).toThrow(/Invalid JSONPath/);
  });
});
