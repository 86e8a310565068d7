// Random programs from the compiled subset: compiled code and engine must agree exactly (outputs, and the
// first error's message), which checks jq's evaluation order in combinations the corpus does not list.
import { beforeAll, expect, it } from 'vitest';
import { compileJq } from '../../compiler/jq/compile.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { engine, load, outcome } from './harness.ts';

beforeAll(() => initJq());

let seed = 12345;
// mulberry32: small, seeded, well distributed
const rand = (n: number): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
};
const pick = <T>(xs: T[]): T => xs[rand(xs.length)];

const LEAVES = ['.', '.a', '.b', '.[0]', '.[-1]', '.a?', '.[]?', '1', '0', '"s"', '"a"', 'null', 'true', 'false', '[]', '{}',
  'length', 'keys', 'type', 'tostring', 'first', 'add', 'not', 'to_entries', 'reverse', 'sort', 'min', 'empty', 'tonumber',
  '.[]', 'last', 'keys_unsorted', 'unique', 'max', 'from_entries', 'tojson', 'values', 'abs', 'any', 'all', '{a, b}', '.a.b?',
  '.[]?.a', 'join(",")', 'split("a")', 'ascii_upcase', 'ltrimstr("s")', 'startswith("a")', 'floor', 'error', '-1',
  '[paths]', '[..]', 'tostream', '@csv', '@sh', '@base64', '@html', 'flatten', 'explode', 'implode', 'trim', 'fromjson',
  'indices(1)', 'contains("a")', 'contains([1])', 'inside([1])', 'del(.a)', 'to_entries', 'utf8bytelength', 'tojson|fromjson'];

/** Path expressions (the left side of assignments, path(...), del(...)). */
const PATHS = ['.', '.a', '.[0]', '.[]?', '.a.b?', '.[1:]', '..', '.a // .b', 'first(.[]?)', 'select(.a)', 'getpath(["a", 0])',
  'recurse', 'if .a then .a else .b end', '.[]?.a?', 'last', '(.a, .b)', 'empty', '.[-1]'];

function program(depth: number): string {
  if (depth === 0 || rand(4) === 0) return pick(LEAVES);
  const a = (): string => program(depth - 1);
  switch (rand(45)) {
    case 0: return `${a()} | ${a()}`;
    case 1: return `${a()}, ${a()}`;
    case 2: return `(${a()}) + (${a()})`;
    case 3: return `(${a()}) - (${a()})`;
    case 4: return `(${a()}) * (${a()})`;
    case 5: return `[${a()}]`;
    case 6: return `{x: (${a()}), ("k\\(${a()})"): (${a()})}`; // integer-like keys would reorder in JS
    case 7: return `if ${a()} then ${a()} else ${a()} end`;
    case 8: return `(${a()}) // (${a()})`;
    case 9: return `(${a()})?`;
    case 10: return `select(${a()})`;
    case 11: return `map(${a()})`;
    case 12: return `(${a()}) and (${a()})`;
    case 13: return `(${a()}) or (${a()})`;
    case 14: return `"<\\(${a()})|\\(${a()})>"`;
    case 15: return `sort_by(${a()})`;
    case 16: return `has(${a()})`;
    case 17: return `.[${a()}]`;
    case 18: return `(${a()}) == (${a()})`;
    case 19: return `(${a()}) < (${a()})`;
    case 20: return `map_values(${a()})`;
    case 21: return `-(${a()})`;
    case 22: return `.[${a()}:${a()}]`;
    case 23: return `(${a()}) / (${a()})`;
    case 24: return `(${a()}) % (${a()})`;
    case 25: return `with_entries(${a()})`;
    case 26: return `unique_by(${a()}), min_by(${a()})`;
    case 27: return `if ${a()} then ${a()} end`;
    case 28: return `error(${a()})`;
    case 29: return `[.[]? | ${a()}]`;
    case 30: return `${pick(PATHS)} |= ${a()}`;
    case 31: return `${pick(PATHS)} = ${a()}`;
    case 32: return `${pick(PATHS)} += ${a()}`;
    case 33: return `[path(${pick(PATHS)})]`;
    case 34: return `del(${pick(PATHS)})`;
    case 35: return `[limit(2; ${a()})], first(${a()}), [last(${a()})]`;
    case 36: return `reduce (${a()}) as $x (${a()}; [$x, .])`;
    case 37: return `[foreach (${a()}) as $x (0; [$x, .]; .[0])]`;
    case 38: return `def f(g): [g, (${a()})]; f(${a()})`;
    case 39: return `label $out | (${a()}) | ., break $out`;
    case 40: return `(${a()}) as [$x, $y] | [$y, $x]`;
    case 41: return `[paths(${a()})]`;
    case 42: return `isempty(${a()}), any(${a()}; ${a()})`;
    case 43: return `pick(${pick(PATHS)})`;
    default: return `any(${a()}), all(${a()}), group_by(${a()})`;
  }
}

const INPUTS: unknown[] = [null, { a: 1, b: [2, 'x'] }, [3, 'a', null, { a: 'y' }], 'str', [[1], [0, 2]], { a: { a: 2 }, s: 'a' }];

it('compiled code and engine agree on random programs', () => {
  let compiled = 0;
  const problems: string[] = [];
  for (let n = 0; n < 400; n++) {
    const src = program(3);
    const c = compileJq(src);
    if (!c) continue;
    compiled++;
    const fn = load(c.code);
    for (const input of INPUTS) {
      const k = outcome(() => fn(structuredClone(input)));
      const e = engine(src, input);
      if (JSON.stringify(k) !== JSON.stringify(e)) problems.push(`${src} on ${JSON.stringify(input)}: ${JSON.stringify(k)} vs ${JSON.stringify(e)}`);
    }
  }
  expect(problems.slice(0, 10)).toEqual([]);
  expect(compiled).toBeGreaterThan(300);
}, 120_000);

// Token soup: whatever compileJq accepts must be valid jq (the engine compiles it) and behave the same.
const TOKENS = ['.', '.a', '.b', '[', ']', '{', '}', '(', ')', ',', '|', '?', ':', '-', '+', '*', '//', 'and', 'or', 'if', 'then',
  'elif', 'else', 'end', '"s"', '"x\\(', '1', '0', 'a', 'b', 'length', 'select(', 'map(', 'has(', ';', '==', '<', '.[', '.[]', ' ',
  '.a?', 'not', 'true', 'null', '"', ')"', '-1', '$__loc__', '#c\n', '..'];

it('accepts only valid jq', () => {
  seed = 99;
  let accepted = 0;
  const problems: string[] = [];
  for (let n = 0; n < 8000; n++) {
    let src = '';
    for (let i = rand(9); i >= 0; i--) src += pick(TOKENS) + (rand(3) === 0 ? ' ' : '');
    const c = compileJq(src);
    if (!c) continue;
    accepted++;
    const fn = load(c.code);
    for (const input of [{ a: 1, b: 's' }, [1, 'a'], null]) {
      const k = outcome(() => fn(structuredClone(input)));
      const e = engine(src, input);
      if (JSON.stringify(k) !== JSON.stringify(e)) problems.push(`${JSON.stringify(src)} on ${JSON.stringify(input)}: ${JSON.stringify(k)} vs ${JSON.stringify(e)}`);
    }
  }
  expect(problems.slice(0, 10)).toEqual([]);
  expect(accepted).toBeGreaterThan(200);
}, 120_000);
