// compileJq: generated code shape, string safety, and exact agreement with the engine on error order,
// number formatting and tonumber messages.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJq } from '../../compiler/jq/compile.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { compiled, engine, load, outcome } from './harness.ts';

beforeAll(() => initJq());

/** Compiled and engine outcomes for each input (they must be identical). */
function both(filter: string, inputs: unknown[]): { compiled: unknown[]; engine: unknown[] } {
  const fn = compiled(filter);
  expect(fn, `${filter} should compile`).not.toBeNull();
  return {
    compiled: inputs.map((i) => outcome(() => fn!(structuredClone(i)))),
    engine: inputs.map((i) => engine(filter, i)),
  };
}

/** The code with its string literals removed: what would run if a program string escaped. */
function codeOutsideStrings(code: string): string {
  return code.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

describe('generated code', () => {
  it('uses a single expression for single-output filters', () => {
    const single = (src: string) => /^ {4}return \[(.*)\];$/m.exec(compileJq(src)!.code)?.[1];
    expect(single('.a.b[0]')).toBe('jq.at(jq.field(jq.field(input, "a"), "b"), 0)');
    expect(single('.a | .b')).toBe('jq.field(jq.field(input, "a"), "b")');
    expect(single('map(.price * 2)')).toBe('jq.iter(input).map((v1) => jq.mul(jq.field(v1, "price"), 2))');
    expect(single('{id, n: .name}')).toBe('{ "id": jq.field(input, "id"), "n": jq.field(input, "name") }');
  });

  it('sends data nested deeper than the JS stack to the engine', () => {
    const code = compileJq('tojson | length')!.code;
    expect(code).toContain('return jq.deeper(e, "tojson | length", input);');
    let deep: unknown = [];
    for (let i = 0; i < 9999; i++) deep = [deep];
    expect(load(code)(deep)).toEqual([20000]);
  });

  it('uses loops, not arrays of streams, for generators', () => {
    const code = compileJq('.[] | select(.x > 1) | .name')!.code;
    expect(code).toContain('for (const v1 of jq.iter(input))');
    expect(code).toContain('if (jq.truthy(jq.gt(jq.field(v1, "x"), 1)))');
  });

  it('is deterministic', () => {
    const src = '[.[] | {a: (.x, .y), b: (.z // 1)}] | sort_by(.a) | map(select(.b))';
    expect(compileJq(src)).toEqual(compileJq(src));
  });

  it('returns null outside the subset', () => {
    for (const src of ['input', '$ENV', '$__loc__', 'test("a")', '@base64d', 'splits(", ")', 'nosuch', 'map(.; .)', 'def f(g): g | f(g); f(.)']) {
      expect(compileJq(src), src).toBeNull();
    }
  });

  it('gives up on pathologically large programs instead of blowing up', () => {
    const src = Array.from({ length: 40 }, () => '(.a, .b)').join(' | ');
    const t = performance.now();
    const c = compileJq(`map_values(${src})`);
    expect(performance.now() - t).toBeLessThan(5000);
    if (c) expect(c.code.length).toBeLessThanOrEqual(200_000);
  });
});

describe('hostile strings in programs stay data', () => {
  const hostile = [
    `."'); process.exit(1)//"`,
    `."\\"); process.exit(1); ("`,
    '.["`${process.exit(1)}`"]',
    '{"\\u2028": 1, "\\u2029": .a, "</script>": 2}',
    '."\\u2028"',
    '"\\u2029\\(.a)\\u2028"',
    '{"__proto__": {"polluted": true}} | .__proto__',
    '."constructor"',
    '.["\\\\"]',
    `"*/ process.exit(1) /*"`,
    '{(."a\\"b"): 1}',
  ];
  for (const src of hostile) {
    it(src, () => {
      const c = compileJq(src);
      expect(c, 'should compile').not.toBeNull();
      expect(codeOutsideStrings(c!.code)).not.toMatch(/process|script|polluted|\u2028|\u2029|`/);
      const input = JSON.parse('{"a": "A", "a\\"b": "k", "constructor": 1, "\\\\": 2, "\'); process.exit(1)//": 3}');
      const r = both(src, [input, null, {}]);
      expect(r.compiled).toEqual(r.engine);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

describe('same results and same first error as the engine', () => {
  const cases: [string, unknown[]][] = [
    ['"\\(error("a")) \\(error("b"))"', [null]],
    ['{a: error("a"), b: error("b")}', [null]],
    ['[error("a"), error("b")]', [null]],
    ['error("a") + error("b")', [null]],
    ['.x + .y', [1, { x: 1, y: 'a' }]],
    ['error("a") and error("b")', [null]],
    ['(error("a"))[error("b")]', [null]],
    ['.[.k]', [{ k: 'a', a: 1 }, [1], 'str']],
    ['{(.): error("v")}', [1, 'k']],
    ['{(.): 1, b: error("v")}', [1, 'k']],
    ['.[error("a"):error("b")]', [null]],
    ['.[.a:.b]', [[1, 2, 3], 'abcdef', { a: 1, b: 2 }]],
    ['(1, error("b")) // 2 | error(tostring)', [null]],
    ['(1, 2) | if . == 1 then error("one") else . end', [null]],
    ['[.[] | (.a, error("b"))?]', [[{ a: 1 }, 2]]],
    ['(.a, .b) | (. + 1)', [{ a: 1, b: 'x' }, { a: 'x', b: 1 }]],
    ['[.[] | .a + .b]', [[{ a: 1, b: 2 }, { a: 'x' }, 3]]],
    ['[.[] | {k: .a, v: .b}]', [[{ a: 1 }, 5]]],
    ['has(.k)', [{ k: 'k' }, [0], null, 'x']],
    ['join(.sep)', [{ sep: 1 }]],
    ['.[] | tostring', [[1e-7, 1e-5, 1e16, 1e17, 123456789012345680000, 1e21, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, 0.5, 100, -0.001]]],
    ['.[] | . * 3 | tostring', [[1e-7, 1e-5, 1e16, 3e20, 0.1, -0.00003, 7]]],
    ['.[] | tojson', [[{ a: [1.5e-9, 'x\u007f\u0000\u001f"\\'] }, '\u2028é😀', 1e100]]],
    ['"v=\\(.)"', [1e-7, 12345678912345678, 0.00001, -1e-300]],
    ['.[] | . % 7', [[1e300, -1e300, 9.3e18, -17, 17.9, -0.5]]],
    ['.[] | -(.) | tostring', [[0, 1, -0.5]]],
    ['.[] | length', [['😀é', -3.5, null, { a: 1 }]]],
    ['.[] | [.[1:3], .[-2:], .[:1]]', [['a😀bcd', [1, 2, 3, 4], 'é']]],
    ['.[] | ascii_downcase, ascii_upcase', [['AbC é😀', 'X']]],
    ['.[] | . + 1', [['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'], ['😀😀😀😀😀'], [{ aaaaaaaaaaaa: [1, 2, 3] }]]],
    ['.["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], .["aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]', [1]],
    ['keys', [{ b: 1, a: 2, A: 3, é: 4, '\uffff': 5, '😀': 6, '': 7 }]],
    ['sort', [[{ b: 1, a: 1 }, { a: 1 }, { a: 0, c: 0 }, [2], [1, 2], 'b', 'a', 'B', '😀', '\uffff', 3, -1, true, false, null]]],
    ['min, max, unique', [[3, 1, 3, [1], null, 'a', { a: 1 }, 1]]],
    ['min_by(.a), max_by(.a), group_by(.a), unique_by(.a), sort_by(.a)', [[{ a: 2, i: 1 }, { a: 1, i: 2 }, { a: 2, i: 3 }, { i: 4 }], { x: 1 }, 'x']],
    ['reverse', [[1, 2], null, '', 'ab', {}, { a: 1 }, 0, 3, -2, true]],
    ['from_entries', [[{ key: 'a', value: 1 }, null], [{ k: 'a' }], [{ key: false, Key: 'K' }], [['a', 1]], [{ key: 1 }], { x: { name: 'n', Value: 2 } }]],
    ['to_entries', [[5, 6], null, 'x']],
    ['map_values(. + 1)', [null, 5, [1, 'x']]],
    ['any, all', [[], [1, false], 1, { a: null }]],
    ['any(.a), all(.a)', [[{ a: 1 }, 2]]],
    ['floor, ceil, round, sqrt, fabs', [-2.5, 2.5, 'x', -0.4]],
    ['abs', [-1, 'a', null, -0.5]],
    ['split(", ")', ['a, b, , c', '', 1]],
    ['startswith("a"), endswith("a"), ltrimstr("a"), rtrimstr("a")', ['aba', 1, 'b']],
    ['error', ['msg', { a: 1 }, null, [1, 2], 'a\u0000b', 'x\n', '  x  ', '\n', 'x\u2028', '']],
    ['"ab" * ., . * "ab"', [0, 0.5, 1.5, -1, 3]],
    ['{} * ., . * {}', [{ a: { b: 1 } }, 1]],
    ['. / "," ', ['a,b,,c', '', 'abc']],
    ['. - [1, [2]]', [[1, [2], 3, [2, 1]], 'x']],
    ['.a.b.c', [{ a: null }, { a: { b: 's' } }, { a: [1] }]],
    ['.[1.7], .[-1.2], .[-0.5], .[10000000000], .[-4]', [[1, 2, 3]]],
    ['.[] | . * ., -(. * .) | ., tostring', [[1e300, -1e300, 1e-300]]],
    ['.[0] / .[1] | ., tostring', [[1, 1e-320], [-1, 1e-320]]],
    ['.[null]', [null, [1], {}]],
    ['[-1, -0, - 0, -(2)] | map(tostring)', [null]],
    ['.a-1, - .a + 1, -.a?, -(.a) * 2, .a - -1', [{ a: 3 }, { a: 'x' }, 4]],
    ['.a .b, .a."b", .a.["b"], ."a"?.b, .["a"]?["b"]?', [{ a: { b: 1 } }, { a: 2 }, 3]],
    ['{a: .x | .y, b: -.z, "c d": 1, if: 2,}', [{ x: { y: 1 }, z: 2 }]],
    ['.[[1]]', [[1, 2, 1], [2], []]],
  ];
  for (const [filter, inputs] of cases) {
    it(filter, () => {
      const r = both(filter, inputs);
      expect(r.compiled).toEqual(r.engine);
    });
  }
});

describe('tonumber', () => {
  const strings = ['1', ' 2', '3 ', '+4', '.5', '5.', '1e2', '1E+2', '-0', '00012', '0012.5', 'nan', 'NaN', 'infinity',
    '-Infinity', '1e400', '1_000', 'x', '1x', '', '   ', '1 2', 'abc def', ' x ', '1 x', 'x 1', '1\nx', 'true', 'true ',
    'null', 'nul', 't', 'nanx', 'é', '-', '.', '1.2.3', '--1', 'a\u0000b', '{}', '[1]', '"1"', '12345678901234567890123'];
  it('matches the engine for valid and common invalid strings', () => {
    const r = both('tonumber', strings);
    expect(r.compiled).toEqual(r.engine);
  });
  it('non-strings', () => {
    const r = both('tonumber', [1.5, null, [1], { a: 'x' }, true]);
    expect(r.compiled).toEqual(r.engine);
  });
});

describe('compiled functions are plain functions of their input', () => {
  it('does not mutate the input', () => {
    const input = { a: [3, 1, 2], b: { c: 1 } };
    const before = JSON.stringify(input);
    for (const src of ['.a | sort', '.b * {c: 2}', '.a + [4]', 'to_entries', 'map_values(. )', '.a | reverse']) {
      load(compileJq(src)!.code)(input);
    }
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('indices on strings', () => {
  it('gives code point offsets past astral characters and surrogate pairs, as the engine does', () => {
    const inputs = ['a😀b😀bb', '😀😀😀x😀x', 'xyz', 'b'.repeat(5) + '😀' + 'b'.repeat(5)];
    const r = both('indices("b")', inputs);
    expect(r.compiled).toEqual(r.engine);
    expect(r.compiled[0]).toEqual({ ok: '[[2,4,5]]' });
  });
});

describe('paths through null', () => {
  it('getpath, setpath and delpaths read null at a string, number or slice key as null, as the engine does', () => {
    const filters = ['getpath(["a", 0, "b"])', 'getpath([{"start": 1, "end": 2}, "x"])', 'try getpath(["a", true]) catch .', 'setpath(["a", 1, "b"]; 7)', 'setpath([{"start": 0, "end": 1}]; [1])', 'delpaths([["a", "b"], ["c", 0]])'];
    for (const f of filters) {
      const r = both(f, [null, { a: null }, { a: [null, null] }]);
      expect(r.compiled, f).toEqual(r.engine);
    }
  });
});
