// jq corpus: filters run on every input below by the compiled code, the engine and /usr/bin/jq.

const users = {
  users: [
    { id: 1, name: 'Ann', age: 30, role: 'admin', email: null, tags: ['a', 'b'] },
    { id: 2, name: 'Bob', age: 25, role: 'user', tags: [] },
    { id: 3, name: 'Cy', age: 35, role: 'user', email: 'c@x', tags: ['b'] },
  ],
  meta: { page: 1, total: 3, next: null },
};

export const INPUTS: Record<string, unknown> = {
  null: null,
  true: true,
  number: 42.5,
  negative: -7,
  string: 'héllo wörld 😀 "q" \\ / \u2028 end',
  empty_array: [],
  empty_object: {},
  mixed: [3, 1, 2, null, 'x', [1], { a: 1 }, true, false, 1.5, -2, 'B', 'a', ''],
  numbers: [5, 3, 8, 1, 9.5, -4, 0, 100000, 0.001],
  strings: ['b', 'a', 'é', 'Z', '😀', '\uffff', 'ab', ''],
  nested: { a: 1, b: { c: 'x', d: [1, 2, { e: null }] }, k: 'a', items: [{ name: 'n1', price: 10 }, { name: 'n2', price: 2.5 }, { name: null }] },
  users,
  entries: [{ key: 'a', value: 1 }, { name: 'b', value: 2 }, { Key: 'c', Value: [3] }, { key: 'd', value: null }],
  matrix: [[1, 2], [3, 4], [], [null, 'x']],
  hostile: JSON.parse('{"__proto__": {"x": 1}, "constructor": "c", "toString": 5, "a": null, "b": false, "é": [1, 2], "": "empty", "1": "one"}'),
  big: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}`, price: (i * 37) % 101, group: ['a', 'b', 'c'][i % 3], ok: i % 4 !== 0 })),
};

export interface Case {
  f: string;
  /** false: outside the compiled subset (compileJq must return null). Default: compiled. */
  compiled?: boolean;
  /** Why /usr/bin/jq (1.6) differs from the engine (jq 1.7 builtins); the binary check is skipped. */
  v16?: string;
}

const c = (f: string, extra: Omit<Case, 'f'> = {}): Case => ({ f, ...extra });
const engineOnly = (f: string): Case => ({ f, compiled: false });

export const CASES: Case[] = [
  // paths and indexing
  c('.'), c('.a'), c('.a.b'), c('.b.c'), c('.b.d[2].e'), c('.items[0].name'), c('.items[-1]'), c('.[0]'), c('.[-1]'),
  c('.[2:4]'), c('.[1:]'), c('.[:-1]'), c('.["a"]'), c('."a"'), c('."é"'), c('.[""]'), c('.__proto__'), c('.constructor'),
  c('.toString'), c('.["1"]'), c('.users[1].name'), c('.a?'), c('.a.b?'), c('.[0]?'), c('.[]'), c('.[]?'), c('.[]?.a'),
  c('.[] | .a?'), c('[.[]?]'), c('.items[].name'), c('.users[].tags[]'), c('.items[]?.price'), c('.[.k]'), c('.a .b'),
  c('.a."b"'), c('.[1.7]', { v16: 'jq 1.6 gives null for fractional indices' }), c('.[-1:]'), c('.[1:2][0]'),
  c('.b.d[1:][1]'), c('.a[]?'), c('.users[0:2][] | .id'),
  // construction
  c('{a, b: .c}'), c('{a: .a, "x y": 1, (.k // "z"): 2}'), c('{name: .users[0].name, n: (.users | length)}'),
  c('[.a, .b]'), c('{a: (1, 2), b: (3, 4)}'), c('[.[] | type]'), c('{(.[]?|strings): 1}'), c('{"a\\(1)": .a}'),
  c('{if: 1, then: .a, end: 2,}'), c('[]'), c('{}'), c('{a: -1, b: - .a}'), c('{x: .a | tostring}'), c('{"__proto__": 1}'),
  c('[.[]?, 1]'), c('{(.[]?|tostring): .}'),
  // arithmetic and comparison
  c('. + 1'), c('1 + .'), c('. - 1'), c('. * 2'), c('2 * .'), c('. / 2'), c('. % 3'), c('-.'), c('.a + .a'), c('. + null'),
  c('. + .'), c('. - .'), c('. * .'), c('. / .'), c('.a * 2 + 1'), c('[.[]? | numbers | . % 4]'), c('. == 1'), c('. != null'),
  c('. < 5'), c('. >= "a"'), c('[.[] | . > 2]'), c('[.[]? | . < {}]'), c('.a + .b'), c('.b * {b: {z: 1}}'), c('. * 0.5', { v16: 'jq 1.6 repeats a string ceil(n) times, jq 1.7 floor(n)' }),
  c('. / ", "'), c('. - [1, null]'), c('[.[]? | numbers] | .[0] / .[1]'), c('.a % 0'), c('[.[]? | -(.)]'),
  // logic and alternatives
  c('.a and .b'), c('.a or .b'), c('not'), c('[.[]? | not]'), c('(true, false) and (.a, null)'), c('.a // "d"'),
  c('.x // .a // 0'), c('[.[]? // "n"]'), c('(.a, .b) // 5'), c('.users[]?.email // "none"'), c('empty // 1'),
  c('(null, 1, false, 2) // 3'),
  // conditionals
  c('if . == null then "null" elif type == "number" then . + 1 else type end'), c('if .a then .a else "no" end'),
  c('if . then 1 end', { v16: 'jq 1.6 requires else' }), c('[.[]? | if . then 1 else 0 end]'),
  c('if (.a, .b) then 1 else 2 end'), c('if . then (1, 2) else (3, 4) end'),
  // builtins
  c('length'), c('[.[]? | length]'), c('keys'), c('keys_unsorted'), c('has("a")'), c('has(0)'), c('[has("a", "b")]'), c('add'),
  c('to_entries'), c('from_entries'), c('with_entries(select(.value != null))'), c('with_entries(.key |= ascii_upcase)'),
  c('first'), c('last'), c('sort'), c('sort_by(.price)'), c('sort_by(.age, .name)'), c('group_by(.role)'), c('unique'),
  c('unique_by(length)'), c('min'), c('max'), c('min_by(.age)'), c('max_by(.price)'), c('reverse'), c('tostring'), c('tonumber'),
  c('[.[]? | tostring]'), c('[.[]? | tojson]'), c('type'), c('map(.a)'), c('map(. + 1)'), c('map(.a, .b)'), c('map_values(. * 2)'),
  c('map_values(empty)', { v16: 'jq 1.6 skips every other array element' }),
  c('map_values(.a?)', { v16: 'jq 1.6 skips every other array element' }), c('select(.a)'), c('.[]? | select(type == "number")'),
  c('.users | map(select(.age > 26) | .name)'), c('.users | group_by(.role) | map({role: .[0].role, n: length})'),
  c('join(", ")'), c('.users | map(.name) | join(", ")'), c('ascii_downcase'), c('ascii_upcase'), c('split(" ")'),
  c('startswith("h")'), c('endswith("end")'), c('ltrimstr("h")', { v16: 'jq 1.8 defines ltrimstr with startswith: non-strings fail' }), c('rtrimstr("end")', { v16: 'jq 1.8 defines rtrimstr with endswith: non-strings fail' }), c('tojson'), c('floor'), c('round'),
  c('abs', { v16: 'abs is new in jq 1.7' }), c('any'), c('all'), c('any(. == 1)'), c('all(type == "number")'),
  c('[values]'), c('[.[]? | numbers]'), c('[.[]? | strings]'), c('[.[]? | arrays, objects]'), c('[.[]? | scalars]'),
  c('[.[]? | nulls]'), c('[.[]? | booleans]'), c('[.[]? | iterables]'), c('empty'), c('error("boom")'), c('error', { v16: 'jq 1.6 try swallows error(null) (null input)' }),
  c('error({a: 1})'), c('error(null)', { v16: 'jq 1.6 try swallows error(null)' }), c('"\\(.a) - \\(.b)"'), c('"total: \\(length)"'), c('"\\(.[]?)!"'),
  c('"x\\("y\\(.a?)")"'), c('[.[]? | tonumber?]'), c('sqrt'), c('ceil'), c('fabs'), c('[.[]? | ascii_downcase?]'),
  c('[.[] | has("id")?]'), c('.users | sort_by(.email) | map(.id)'), c('group_by(.group) | map(length)'),
  c('map(select(.ok)) | length'), c('[.[]? | .price?] | add'), c('sort_by(.price) | .[0:3] | map(.id)'),
  c('map({id, cheap: (.price < 20)}) | map(select(.cheap)) | length'), c('to_entries | map(.key) | add'),
  // try, pipes, commas
  c('(.a.b)?'), c('[.[]? | (.a)?]'), c('.[]? | .a?'), c('[(.[]? | tonumber)?]'), c('(.a, .b) | tostring'),
  c('[.[]? | ., .]'), c('.users[]? | {name, age}'), c('.a?, .b?'), c('(1, .a?) | tostring'), c('[.[]?.a?]'),
  c('(.[] | error)?'), c('.a?.b?'), c('.[]?[]?'),
  // syntax errors and non-canonical or folded constants: not compiled, the engine reports them
  engineOnly('.a['), { f: '{a: 1 + 2}', compiled: false, v16: 'jq 1.8 allows operators in object values' }, engineOnly('1 < 2 < 3'), engineOnly('.a.'), engineOnly('{(1): 2}'),
  { f: '1.0 | tostring', compiled: false, v16: 'jq 1.7 keeps the literal text 1.0' }, engineOnly('"\\ud800"'), engineOnly('. a'), { f: '(.a)?.b', compiled: false, v16: 'jq 1.6 cannot index after ?' },
  // outside the subset: the engine runs them
  c('.. | numbers'), c('reduce .[]? as $x (0; . + 1)'), c('.a as $x | $x'), c('[.[]? as $x | .[]? as $y | [$x, $y]] | length'),
  c('reduce .[]? as $x (0; . + ($x | numbers))'), { f: 'reduce .[]? as $x (0, 10; . + 1)', compiled: false }, c('[reduce .[]? as $x (0; if $x == 2 then empty else . + 1 end)]'), c('. as $x | [$x | length, ($x | type)]'),
  c('def f: . + 1; [.[]? | numbers | f]'), c('[limit(2; .[]?)]'), c('.a |= 1'),
  c('try error("x") catch .'), c('[.[]? | try (. + 1) catch "bad"]'), c('try error({a: .}) catch .a'), c('[.[]? | (try tonumber catch null)]'),
  c('try (1, error("x"), 3) catch "caught \\(.)"'), c('try error(null) catch .', { v16: 'jq 1.6 try swallows error(null)' }), c('[.[]? | try .a]'), c('try (try error("in") catch error("out")) catch .'), c('[paths]'), c('[range(3)]'), c('[range(.a?)?]'), c('[range(0, 1; 3, 4)]'), c('[range(length)]'), c('[.[]? as $n | range($n)]'), c('[range(1.5)]'), c('tostream'),
  c('@base64'), c('getpath(["a"])'), c('del(.a)'), engineOnly('[.[]? | strings | test("a")]'),
  c('walk(if type == "number" then . + 1 else . end)'), engineOnly('[splits(", ")?]'),
  c('to_entries[]? | "\\(.key)=\\(.value)" | @text'), { f: '$__loc__', compiled: false, v16: 'the harness puts the program on line 2' },
  c('1 + 2'), c('{a: 1} | .a += 1'),
];
